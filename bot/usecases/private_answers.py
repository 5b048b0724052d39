"""Taking an answer to a private attempt's question by a button: a tap (a single choice, true or
false, a flashcard's rating, `TakingAnswers.answer`) or a select-all question's toggles and
Submit (`PrivateSelections`); and keeping an accepted answer of any kind, a typed number's too
(`TakingAnswers.keep`, `settled`, `accepted`; the reply itself is bound to its question in
private_replies.py). Every kind is judged by the one `bot.core.answers.judge`, with the same
guarantees: only the attempt's owner, only its current question, durable before the verdict is
shown, and never while the learner is in an exam (`InExam`).

The attempt an answer goes to (its life, its cache and the one ownership check) is
`private_quiz.PrivateQuiz`, which takes its answers as a `TakingAnswers`. This module cannot
import it (no two modules import each other), so what an answer needs of its attempt is named
here, as `TakingAnswers`'s abstract methods.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from bot.core import answers
from bot.core.answers import Selection, selected_ids
from bot.core.clock import Clock
from bot.core.engine import AnswerOutcome as EngineOutcome
from bot.core.engine import (
    Attempt,
    Judgement,
    Score,
    SetJudgement,
    Verdict,
    closed_verdict,
    score,
)
from bot.core.kinds import QuestionKind, rating_id
from bot.core.models import Question, Quiz
from bot.core.review import ReviewItem
from bot.store import LearnerStore
from bot.store.selections import SelectionStore
from bot.usecases.outcomes import AlreadyAnswered, Closed, NothingSelected, NotYours


def option_id(question: Question, option_index: int) -> str:
    """What an answer row records as the option chosen: the option's id, or a flashcard's
    rating (`kinds.rating_id`: "rating:again" .. "rating:easy")."""
    if question.flashcard:
        return rating_id(option_index)
    return question.options[option_index].id


@dataclass(frozen=True, slots=True)
class Answered:
    """The answer is durable: the learner may now see the verdict."""

    quiz: Quiz
    attempt: Attempt
    judgement: Judgement | SetJudgement
    score: Score | None  # set when this answer finished the attempt
    due: ReviewItem | None = None  # a rated flashcard: its FSRS state and due day


@dataclass(frozen=True, slots=True)
class InExam:
    """The learner is in an exam: no private quiz starts or goes on until it ends, since each
    answer would show a verdict and an explanation the exam keeps for its end. Nothing changed."""


@dataclass(frozen=True, slots=True)
class Toggled:
    """The learner's selection after the tap, as option indexes (not yet an answer)."""

    quiz: Quiz
    attempt: Attempt
    index: int
    selected: frozenset[int]


def refused(verdict: Verdict | None) -> AlreadyAnswered | Closed | None:
    """Why an answer judged `verdict` (engine.closed_verdict, answers.apply) is not taken."""
    if verdict is None or verdict is Verdict.ACCEPTED:
        return None
    return AlreadyAnswered() if verdict is Verdict.ALREADY_ANSWERED else Closed()


AnswerOutcome = Answered | AlreadyAnswered | NotYours | Closed | InExam
ToggleOutcome = Toggled | AlreadyAnswered | NotYours | Closed | InExam
SubmitOutcome = Answered | NothingSelected | AlreadyAnswered | NotYours | Closed | InExam


class TakingAnswers(ABC):
    """A private attempt's answers: a tap taken, and an accepted answer of any kind kept."""

    learners: LearnerStore
    clock: Clock
    # A flashcard's rating to FSRS (SpacedReview.rate_flashcard: user, quiz id, question id,
    # rating 0..3 -> its new state); None: ratings are stored as answers only.
    flashcard_rated: Callable[[int, str, str, int], Awaitable[ReviewItem]] | None = None

    # -- what an answer needs of its attempt (PrivateQuiz) ------------------------------------

    @abstractmethod
    async def owned(self, user_id: int, attempt_id: int) -> tuple[Attempt, Quiz] | None:
        """The attempt and its quiz when `user_id` owns it: the one check of every answer."""

    @abstractmethod
    async def in_exam(self, user_id: int) -> bool:
        """Whether the learner is in an exam, when no answer is taken."""

    @abstractmethod
    async def _attempt(self, attempt_id: int) -> Attempt | None:
        """The attempt, from the cache or else the store."""

    @abstractmethod
    def forget_attempt(self, attempt_id: int) -> None:
        """Drop a cached attempt after a lost race: the next look-up reads the store."""

    @abstractmethod
    def _remember(self, attempt: Attempt) -> None:
        """Cache the attempt as it now is."""

    # -- taking and keeping an answer ---------------------------------------------------------

    async def answer(
        self, user_id: int, attempt_id: int, question_index: int, position: int, lang: str
    ) -> AnswerOutcome:
        """Apply a tap (a flashcard's: its rating); durable before this returns `Answered`."""
        owned = await self.owned(user_id, attempt_id)
        if owned is None:
            return NotYours()
        attempt, quiz = owned
        question = quiz.questions[question_index] if 0 <= question_index < len(quiz) else None
        outcome = answers.apply(attempt, quiz, question_index, answers.tap(question, position))
        refusal = refused(outcome.verdict)
        if refusal is not None or question is None:
            return refusal or Closed()
        if await self.in_exam(user_id):
            return InExam()
        stored = await self.keep(attempt, quiz, outcome, lang, self.clock())
        answered = await self.settled(quiz, outcome, question_index, stored)
        if isinstance(answered, Answered) and question.flashcard and self.flashcard_rated:
            rating = answered.judgement.option_index
            due = await self.flashcard_rated(user_id, quiz.id, question.id, rating)
            answered = replace(answered, due=due)
        return answered

    async def keep(
        self,
        attempt: Attempt,
        quiz: Quiz,
        outcome: EngineOutcome,
        lang: str,
        now: float,
        typed: tuple[str, float] | None = None,
    ) -> bool:
        """Ask the store to keep an accepted answer of any kind, with what its kind records (a
        rating's id, a submitted set and its credit, the text typed); False: it lost a race."""
        judgement = outcome.judgement
        if judgement is None:  # nothing accepted: nothing to keep
            return False
        index = judgement.question_index
        question = quiz.questions[index]
        ids, credit = None, None
        if isinstance(judgement, SetJudgement):
            ids, credit = selected_ids(quiz, index, judgement.selected), judgement.score.fraction
        return await self.learners.record_answer(
            attempt,
            index,
            judgement.option_index,
            judgement.is_correct,
            lang,
            now,
            question_id=question.id,
            option_id="" if question.typed else option_id(question, judgement.option_index),
            typed=typed,
            selected_ids=ids,
            score=credit,
        )

    async def settled(
        self, quiz: Quiz, outcome: EngineOutcome, question_index: int, stored: bool
    ) -> AnswerOutcome:
        """After the store was asked to keep an accepted answer (a tap, or a submitted set):
        `Answered` when it did, else why not, read back from the store."""
        attempt_id = outcome.attempt.id
        if not stored or outcome.judgement is None:
            # Lost a race with a double tap or with /stop: reload the truth from the store.
            self.forget_attempt(attempt_id)
            fresh = await self._attempt(attempt_id)
            answered = fresh is not None and fresh.answers[question_index] is not None
            return AlreadyAnswered() if answered else Closed()
        return self.accepted(quiz, outcome, outcome.judgement)

    def accepted(
        self, quiz: Quiz, outcome: EngineOutcome, judgement: Judgement | SetJudgement
    ) -> Answered:
        """An answer the store kept: the attempt as it now is, scored when it is finished (a
        select-all question counts by its submitted set)."""
        self._remember(outcome.attempt)
        final = None
        if outcome.finished:
            final = score(quiz, outcome.attempt.answers, outcome.attempt.selections)
        return Answered(quiz, outcome.attempt, judgement, final)


class PrivateSelections:
    """Select-all questions (kind: multiple): toggle an option, submit the set.

    A toggle is not an answer: it flips one option of the learner's pending selection, kept in
    the store (bot/store/selections.py says why), and changes nothing else. Submit reads that
    selection and keeps it as the question's one answer (bot/core/kinds.py: right only for the
    exact set, partial credit otherwise), as `TakingAnswers.answer` keeps a tap.
    """

    def __init__(
        self, quiz: TakingAnswers, selections: SelectionStore, *, clock: Clock = time.time
    ) -> None:
        self.quiz = quiz
        self.selections = selections
        self.clock = clock

    async def _current(
        self, user_id: int, attempt_id: int, index: int
    ) -> tuple[Attempt, Quiz] | NotYours | AlreadyAnswered | Closed | InExam:
        """The attempt when `index` is its current select-all question, else why not."""
        owned = await self.quiz.owned(user_id, attempt_id)
        if owned is None:
            return NotYours()
        attempt, quiz = owned
        if not 0 <= index < len(quiz) or quiz.questions[index].kind is not QuestionKind.MULTIPLE:
            return Closed()
        refusal = refused(closed_verdict(attempt, quiz, index))
        if refusal is not None:
            return refusal  # as for a tap: once the attempt is over, all of it is closed
        if await self.quiz.in_exam(user_id):
            return InExam()
        return attempt, quiz

    async def toggle(
        self, user_id: int, attempt_id: int, index: int, position: int
    ) -> ToggleOutcome:
        """Select or unselect the option shown at `position` of question `index`."""
        found = await self._current(user_id, attempt_id, index)
        if not isinstance(found, tuple):
            return found
        attempt, quiz = found
        order = attempt.orders[index]
        if not 0 <= position < len(order):
            return Closed()  # a position no button carried
        selected = await self.selections.toggle(
            attempt.id, index, user_id, order[position], self.clock(), group=False
        )
        if selected is None:  # submitted or stopped meanwhile
            return AlreadyAnswered() if await self._answered(attempt_id, index) else Closed()
        return Toggled(quiz, attempt, index, selected)

    async def selection(self, attempt: Attempt, index: int) -> frozenset[int]:
        """The learner's pending selection of question `index` (to draw its buttons)."""
        return await self.selections.selected(attempt.id, index, attempt.user_id)

    async def submit(self, user_id: int, attempt_id: int, index: int, lang: str) -> SubmitOutcome:
        """Score and store the selection as the question's answer; durable before `Answered`."""
        found = await self._current(user_id, attempt_id, index)
        if not isinstance(found, tuple):
            return found
        attempt, quiz = found
        selected = await self.selections.selected(attempt.id, index, user_id)
        if not selected:
            return NothingSelected()
        shown = Selection(answers.positions(attempt.orders[index], selected))
        outcome = answers.apply(attempt, quiz, index, shown)
        if outcome.verdict is not Verdict.ACCEPTED:
            return Closed()
        stored = await self.quiz.keep(attempt, quiz, outcome, lang, self.clock())
        return await self.quiz.settled(quiz, outcome, index, stored)

    async def _answered(self, attempt_id: int, index: int) -> bool:
        """Read from the store, not the cache: another tap may have submitted meanwhile."""
        fresh = await self.quiz.learners.attempt(attempt_id)
        return fresh is not None and fresh.answers[index] is not None
