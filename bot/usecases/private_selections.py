"""Select-all questions (kind: multiple) in a private quiz: toggle an option, submit the set.

A toggle is not an answer: it flips one option of the learner's pending selection, kept in the
store (bot/store/selections.py says why), and changes nothing else. Submit reads that selection,
scores it (bot/core/kinds.py: right only for the exact set, partial credit otherwise) and stores
it as the question's one answer, with the same guarantees as a tap on a single-answer question:
only the attempt's owner, only its current question, durable before the verdict is shown, and
neither while the learner is in an exam (bot/usecases/private_quiz.py says why).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.engine import Attempt, SetJudgement, Status, Verdict, apply_selection
from bot.core.kinds import QuestionKind
from bot.core.models import Quiz
from bot.store.selections import SelectionStore
from bot.usecases.outcomes import AlreadyAnswered, Closed, NothingSelected, NotYours
from bot.usecases.private_quiz import (
    Answered,
    InExam,
    PrivateQuiz,
)


@dataclass(frozen=True, slots=True)
class Toggled:
    """The learner's selection after the tap, as option indexes (not yet an answer)."""

    quiz: Quiz
    attempt: Attempt
    index: int
    selected: frozenset[int]


ToggleOutcome = Toggled | AlreadyAnswered | NotYours | Closed | InExam
SubmitOutcome = Answered | NothingSelected | AlreadyAnswered | NotYours | Closed | InExam


def selected_ids(quiz: Quiz, index: int, selected: frozenset[int]) -> str:
    """The stored form of a selection: option ids in the question's order, comma-joined."""
    options = quiz.questions[index].options
    return ",".join(options[i].id for i in sorted(selected))


class PrivateSelections:
    def __init__(
        self, quiz: PrivateQuiz, selections: SelectionStore, *, clock: Clock = time.time
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
        if attempt.status is not Status.ACTIVE:
            return Closed()  # as for a tap: once the attempt is over, all of it is closed
        if attempt.answers[index] is not None:
            return AlreadyAnswered()
        if index != attempt.current:
            return Closed()
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
        outcome = apply_selection(attempt, quiz, index, selected)
        judgement = outcome.judgement
        if outcome.verdict is not Verdict.ACCEPTED or not isinstance(judgement, SetJudgement):
            return Closed()
        question = quiz.questions[index]
        stored = await self.quiz.learners.record_answer(
            attempt,
            index,
            judgement.option_index,
            judgement.is_correct,
            lang,
            self.clock(),
            question_id=question.id,
            option_id=question.options[judgement.option_index].id,
            selected_ids=selected_ids(quiz, index, selected),
            score=judgement.score.fraction,
        )
        return await self.quiz.settled(quiz, outcome, index, stored)

    async def _answered(self, attempt_id: int, index: int) -> bool:
        """Read from the store, not the cache: another tap may have submitted meanwhile."""
        fresh = await self.quiz.learners.attempt(attempt_id)
        return fresh is not None and fresh.answers[index] is not None
