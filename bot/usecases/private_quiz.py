"""The private quiz, one use case per tap: start, answer, next, continue, abandon, mistakes;
and the answers of every kind to it: a tap (single, true/false, a flashcard's rating), a
select-all question's toggles and Submit (`PrivateSelections`), a typed number
(`TypedAnswers`). Every kind is judged by the one `bot.core.answers.judge` and kept by one
`PrivateQuiz.keep`, with the same guarantees: only the attempt's owner, only its current
question, durable before the verdict is shown, and never while the learner is in an exam.

Each takes plain values and returns a typed outcome the adapter only renders. Ownership of an
attempt is checked once, in `owned`; what comes after an answer (the next question or the
result) is decided here, not in a handler. Active attempts are kept in memory after first use:
the process is the only writer, so the cache cannot go stale, and a tap then costs one SQLite
write (whether an exam runs is kept too: PracticeSession.exam_running, docs/caches.md). With
several workers on one store (`shared`) another process may write, so no attempt is kept:
every look-up reads the store.

While the learner is in an exam no private quiz starts or goes on (`InExam`): the same quiz, or
any sharing its questions, would judge and explain each answer, and the exam promises no verdict
until its end (bot/usecases/practice_session.py). So a start (/start <id>, a deep link, the list,
Retake, Start over), Continue, Next, an answer and "Review my mistakes" wait for the exam to end,
changing nothing; only Stop (abandoning the quiz) still works. Any quiz, not only those sharing a
question with the exam: the same question may sit in another quiz under another id.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

from bot.core import answers
from bot.core.answers import Selection, Typed, selected_ids
from bot.core.clock import Clock
from bot.core.engine import AnswerOutcome as EngineOutcome
from bot.core.engine import (
    Attempt,
    Judgement,
    Score,
    SetJudgement,
    Status,
    Verdict,
    closed_verdict,
    new_attempt,
    orders_match,
    score,
)
from bot.core.kinds import QuestionKind, parse_number, rating_id
from bot.core.models import Catalog, Question, Quiz
from bot.core.review import ReviewItem
from bot.store import LearnerStore
from bot.store.selections import SelectionStore
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.outcomes import (
    AlreadyAnswered,
    Asked,
    Closed,
    NotAsked,
    NothingSelected,
    NotYours,
    OldQuestion,
    Unreadable,
    unreadable,
)

CACHE_SIZE = 10_000
V = TypeVar("V")


class _Lru(OrderedDict[int, V]):
    """A bounded map: the oldest entries go first once it is full."""

    def remember(self, key: int, value: V) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > CACHE_SIZE:
            self.popitem(last=False)


def option_id(question: Question, option_index: int) -> str:
    """What an answer row records as the option chosen: the option's id, or a flashcard's
    rating (`kinds.rating_id`: "rating:again" .. "rating:easy")."""
    if question.flashcard:
        return rating_id(option_index)
    return question.options[option_index].id


# -- outcomes ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answered:
    """The answer is durable: the learner may now see the verdict."""

    quiz: Quiz
    attempt: Attempt
    judgement: Judgement | SetJudgement
    score: Score | None  # set when this answer finished the attempt
    due: ReviewItem | None = None  # a rated flashcard: its FSRS state and due day


@dataclass(frozen=True, slots=True)
class ShowQuestion:
    quiz: Quiz
    attempt: Attempt
    index: int


@dataclass(frozen=True, slots=True)
class ShowResult:
    quiz: Quiz
    attempt: Attempt
    score: Score


@dataclass(frozen=True, slots=True)
class AlreadyShown:
    """A second tap on the same "Next": what it shows is already in the chat."""


@dataclass(frozen=True, slots=True)
class Abandoned:
    pass


@dataclass(frozen=True, slots=True)
class Mistakes:
    quiz: Quiz
    attempt: Attempt
    missed: tuple[int, ...]
    typed: Mapping[int, str] = field(default_factory=dict)  # number questions: what was typed


@dataclass(frozen=True, slots=True)
class UnknownQuiz:
    pass


@dataclass(frozen=True, slots=True)
class StartChoice:
    """A quiz answered in part is running: the learner chooses to continue it or to start
    `wanted` (the same quiz over, or another), rather than lose it silently."""

    running: ShowQuestion
    wanted: Quiz


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


@dataclass(frozen=True, slots=True)
class TypedAnswered:
    """The typed answer is durable: show the verdict in the question's message."""

    quiz: Quiz
    attempt: Attempt
    index: int
    typed: str
    right: bool
    asked: Asked
    score: Score | None  # set when this answer finished the attempt


def refused(verdict: Verdict | None) -> AlreadyAnswered | Closed | None:
    """Why an answer judged `verdict` (engine.closed_verdict, answers.apply) is not taken."""
    if verdict is None or verdict is Verdict.ACCEPTED:
        return None
    return AlreadyAnswered() if verdict is Verdict.ALREADY_ANSWERED else Closed()


AnswerOutcome = Answered | AlreadyAnswered | NotYours | Closed | InExam
NextOutcome = ShowQuestion | ShowResult | AlreadyShown | NotYours | Closed | InExam
ResumeOutcome = ShowQuestion | NotYours | Closed | InExam
AbandonOutcome = Abandoned | NotYours | Closed
MistakesOutcome = Mistakes | NotYours | InExam
StartOutcome = ShowQuestion | StartChoice | UnknownQuiz | InExam
ToggleOutcome = Toggled | AlreadyAnswered | NotYours | Closed | InExam
SubmitOutcome = Answered | NothingSelected | AlreadyAnswered | NotYours | Closed | InExam
TypedOutcome = TypedAnswered | Unreadable | OldQuestion | NotAsked | InExam


class PrivateQuiz(ServesCatalog):
    # Whether a learner is in an exam (PracticeSession.exam_running); None: exams never wait.
    exam_running: Callable[[int], Awaitable[bool]] | None = None
    # A flashcard's rating to FSRS (SpacedReview.rate_flashcard: user, quiz id, question id,
    # rating 0..3 -> its new state); None: ratings are stored as answers only.
    flashcard_rated: Callable[[int, str, str, int], Awaitable[ReviewItem]] | None = None

    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        learners: LearnerStore,
        *,
        clock: Clock = time.time,
        rng: random.Random | None = None,
        shared: bool = False,
        exam_running: Callable[[int], Awaitable[bool]] | None = None,
        flashcard_rated: Callable[[int, str, str, int], Awaitable[ReviewItem]] | None = None,
    ) -> None:
        self.exam_running = exam_running
        self.flashcard_rated = flashcard_rated
        self._catalog_ref = catalog_ref(catalog)
        self.learners = learners
        self.shared = shared
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self._attempts: _Lru[Attempt] = _Lru()
        self._shown: _Lru[int] = _Lru()  # attempt id -> highest question index shown
        # user -> ids of their attempts cached as active: forgetting them must not scan the cache.
        self._active_ids: dict[int, set[int]] = {}

    # -- starting and stopping ----------------------------------------------------------------

    async def in_exam(self, user_id: int) -> bool:
        """Whether the learner is in an exam, when no private quiz may start or go on."""
        return self.exam_running is not None and await self.exam_running(user_id)

    async def start(self, user_id: int, quiz_id: str, *, ask: bool = False) -> StartOutcome:
        """Start a quiz for the learner, abandoning whatever they had running; with `ask`, a
        quiz already answered in part is not dropped: the learner is asked first
        (`StartChoice`), wherever the start came from (a link, the list, Retake)."""
        quiz = self.catalog.quiz(quiz_id)
        if quiz is None:
            return UnknownQuiz()
        if await self.in_exam(user_id):
            return InExam()
        running = await self.running(user_id) if ask else None
        if running is not None and running.attempt.current > 0:
            return StartChoice(running, quiz)
        probe = new_attempt(0, user_id, quiz, self.rng)
        attempt_id = await self.learners.start_attempt(
            user_id, quiz.id, probe.orders, self.clock(), quiz.version
        )
        attempt = Attempt(
            attempt_id, user_id, quiz.id, probe.orders, probe.answers, version=quiz.version
        )
        self._forget_active(user_id)
        self._remember(attempt)
        return ShowQuestion(quiz, attempt, 0)

    async def running(self, user_id: int) -> ShowQuestion | None:
        """The learner's running attempt at its current question, if it can still be played."""
        attempt = await self.learners.active_attempt(user_id)
        if attempt is None:
            return None
        quiz = self.quiz_of(attempt)
        if quiz is None:
            # The content changed under a running attempt: it cannot be continued faithfully.
            await self.learners.abandon(user_id, self.clock())
            return None
        cached = await self._attempt(attempt.id)
        attempt = cached or attempt
        return ShowQuestion(quiz, attempt, attempt.current)

    async def stop(self, user_id: int) -> bool:
        """Abandon the learner's running attempt (/stop); False when there was none."""
        stopped = await self.learners.abandon(user_id, self.clock())
        self._forget_active(user_id)
        return stopped is not None

    async def abandon(self, user_id: int, attempt_id: int) -> AbandonOutcome:
        """The "Stop" button of one attempt: only its owner, only while it runs."""
        owned = await self.owned(user_id, attempt_id)
        if owned is None:
            return NotYours()
        attempt, _ = owned
        if attempt.status is not Status.ACTIVE:
            return Closed()
        await self.stop(user_id)
        return Abandoned()

    # -- taps on a running attempt ------------------------------------------------------------

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

    async def flip(self, user_id: int, attempt_id: int, question_index: int) -> ResumeOutcome:
        """ "Show answer" on a flashcard: its back and rating buttons, only for its owner, only
        while it is the attempt's current, unanswered question. Changes nothing stored."""
        owned = await self.owned(user_id, attempt_id)
        if owned is None:
            return NotYours()
        attempt, quiz = owned
        if (
            attempt.status is not Status.ACTIVE
            or question_index != attempt.current
            or not quiz.questions[question_index].flashcard
        ):
            return Closed()
        if await self.in_exam(user_id):
            return InExam()
        return ShowQuestion(quiz, attempt, question_index)

    async def settled(
        self, quiz: Quiz, outcome: EngineOutcome, question_index: int, stored: bool
    ) -> AnswerOutcome:
        """After the store was asked to keep an accepted answer (a tap, or a submitted set):
        `Answered` when it did, else why not, read back from the store."""
        attempt_id = outcome.attempt.id
        if not stored or outcome.judgement is None:
            # Lost a race with a double tap or with /stop: reload the truth from the store.
            self._attempts.pop(attempt_id, None)
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

    async def next(self, user_id: int, attempt_id: int, question_index: int) -> NextOutcome:
        """The "Next" button: the next question, or the result once the last was answered.

        Shown once per question: a repeated tap is `AlreadyShown` (kept in memory only; after a
        restart a repeated "Next" may show a question twice, which is harmless).
        """
        owned = await self.owned(user_id, attempt_id)
        if owned is None:
            return NotYours()
        attempt, quiz = owned
        finished = attempt.status is Status.FINISHED and question_index >= len(quiz)
        current = attempt.status is Status.ACTIVE and question_index == attempt.current
        if not (finished or current):
            return Closed()
        if await self.in_exam(user_id):
            return InExam()
        if not self._claim_showing(attempt.id, question_index):
            return AlreadyShown()
        if finished:
            return ShowResult(quiz, attempt, score(quiz, attempt.answers, attempt.selections))
        return ShowQuestion(quiz, attempt, question_index)

    async def resume(self, user_id: int, attempt_id: int) -> ResumeOutcome:
        """The "Continue" button of a running attempt, after a restart or a lost message."""
        if await self.owned(user_id, attempt_id) is None:
            return NotYours()  # a forged id: the tapper's message must stay as it is
        if await self.in_exam(user_id):
            return InExam()
        running = await self.running(user_id)
        if running is None or running.attempt.id != attempt_id:
            return Closed()
        self._claim_showing(attempt_id, running.index)
        return running

    async def mistakes(self, user_id: int, attempt_id: int) -> MistakesOutcome:
        """The questions the learner missed in one of their attempts, for its review screen."""
        owned = await self.owned(user_id, attempt_id)
        if owned is None:
            return NotYours()
        if await self.in_exam(user_id):
            return InExam()  # the right answers of questions the exam may ask
        attempt, quiz = owned
        missed = score(quiz, attempt.answers, attempt.selections).missed  # no flashcard
        typed: dict[int, str] = {}
        if any(quiz.questions[i].typed for i in missed):
            typed = await self.learners.typed_texts(attempt.id)
        return Mistakes(quiz, attempt, missed, typed)

    # -- the one ownership check --------------------------------------------------------------

    async def owned(self, user_id: int, attempt_id: int) -> tuple[Attempt, Quiz] | None:
        """The attempt and its quiz when `user_id` owns it and its content still fits it: the
        one check of every kind of answer (`PrivateSelections` and `TypedAnswers` too)."""
        attempt = await self._attempt(attempt_id)
        if attempt is None or attempt.user_id != user_id:
            return None
        quiz = self.quiz_of(attempt)
        return None if quiz is None else (attempt, quiz)

    def quiz_of(self, attempt: Attempt) -> Quiz | None:
        """The quiz as the attempt started it, even after a reload changed the content; None
        when that version is gone (a restart since) or no longer fits the attempt: a learner
        never sees a question change under their thumb."""
        quiz = self.catalog.quiz_at(attempt.quiz_id, attempt.version)
        if quiz is None or (attempt.version and quiz.version != attempt.version):
            return None
        return quiz if orders_match(quiz, attempt.orders) else None

    async def _attempt(self, attempt_id: int) -> Attempt | None:
        cached = None if self.shared else self._attempts.get(attempt_id)
        if cached is not None:
            return cached
        attempt = await self.learners.attempt(attempt_id)
        if attempt is not None:
            self._remember(attempt)
        return attempt

    def forget_attempt(self, attempt_id: int) -> None:
        """Drop a cached attempt after a lost race: the next look-up reads the store."""
        self._attempts.pop(attempt_id, None)

    def _claim_showing(self, attempt_id: int, question_index: int) -> bool:
        if self._shown.get(attempt_id, -1) >= question_index:
            return False
        self._shown.remember(attempt_id, question_index)
        return True

    def _remember(self, attempt: Attempt) -> None:
        if self.shared:
            return
        self._attempts.remember(attempt.id, attempt)
        if attempt.status is Status.ACTIVE:
            self._active_ids.setdefault(attempt.user_id, set()).add(attempt.id)
        elif attempt.user_id in self._active_ids:
            self._active_ids[attempt.user_id].discard(attempt.id)

    def forget_cached(self, user_id: int) -> None:
        """After /forget: none of the user's attempts stays in memory."""
        self._active_ids.pop(user_id, None)
        for key in [k for k, attempt in self._attempts.items() if attempt.user_id == user_id]:
            self._attempts.pop(key, None)
            self._shown.pop(key, None)

    def _forget_active(self, user_id: int) -> None:
        for key in self._active_ids.pop(user_id, ()):
            value = self._attempts.get(key)
            if value is not None and value.status is Status.ACTIVE:
                self._attempts.pop(key, None)


class PrivateSelections:
    """Select-all questions (kind: multiple): toggle an option, submit the set.

    A toggle is not an answer: it flips one option of the learner's pending selection, kept in
    the store (bot/store/selections.py says why), and changes nothing else. Submit reads that
    selection and keeps it as the question's one answer (bot/core/kinds.py: right only for the
    exact set, partial credit otherwise), as `PrivateQuiz.answer` keeps a tap.
    """

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


class TypedAnswers:
    """A typed reply in the private chat, bound to the learner's own open `number` question.

    The reply text alone proves nothing (anyone can type "64", and a learner may reply to an
    old message), so the question it answers is decided here from the attempt's state: the
    learner's running attempt, its current question, and whether that question was asked (its
    message was sent and remembered by `asked`). A reply to a message older than the open
    question's is a reply to an old question and changes nothing. While the learner is in an
    exam the reply is not taken (`InExam`), and the question stays open.

    The asked question's messages are kept in memory, and the question's message id in the
    store too (`attempts.typed_message_id`, cleared once answered, and its prompt's
    `typed_prompt_id`), so a reply still binds, and the prompt is deleted, after a restart or on
    another worker.
    """

    def __init__(self, quiz: PrivateQuiz) -> None:
        self.quiz = quiz
        self._asked: dict[int, Asked] = {}  # attempt id -> its open number question's messages

    async def asked(self, attempt_id: int, asked: Asked) -> Asked | None:
        """The number question `asked.index` was sent; returns the earlier prompt of the same
        question, if any (sent again by Continue): the caller deletes it."""
        before = self._asked.get(attempt_id)
        if len(self._asked) >= CACHE_SIZE:  # abandoned attempts' entries: the store has them
            self._asked.clear()
        self._asked[attempt_id] = asked
        await self.quiz.learners.typed_question_sent(attempt_id, asked.question_message)
        if before is not None and before.index == asked.index and before.prompt_message:
            return before
        return None

    async def prompted(self, attempt_id: int, index: int, prompt_message: int) -> None:
        """The question's reply prompt went out (deleted once the question is answered, by
        whichever worker takes the reply: its id is stored too)."""
        known = self._asked.get(attempt_id)
        if known is not None and known.index == index:
            self._asked[attempt_id] = replace(known, prompt_message=prompt_message)
        await self.quiz.learners.typed_prompt_sent(attempt_id, prompt_message)

    async def answer(
        self, user_id: int, text: str, reply_to: int | None, lang: str, separator: str
    ) -> TypedOutcome:
        """A text from the learner: the answer to their open number question, or why not."""
        running = await self.quiz.running(user_id)
        if running is None:
            return OldQuestion() if reply_to is not None else NotAsked()
        quiz, attempt, index = running.quiz, running.attempt, running.index
        asked = await self._open(attempt, index)
        if asked is None or index >= len(quiz) or not quiz.questions[index].typed:
            return OldQuestion() if reply_to is not None else NotAsked()
        if reply_to is not None and reply_to < asked.question_message:
            return OldQuestion()
        if await self.quiz.in_exam(user_id):
            return InExam()
        question = quiz.questions[index]
        typed = text.strip()
        value = parse_number(typed, separator, answers.units(question, lang))
        if value is None:
            return unreadable(question, typed, separator, lang)
        outcome = answers.apply(attempt, quiz, index, Typed(value))
        judgement = outcome.judgement
        if outcome.verdict is not Verdict.ACCEPTED or judgement is None:
            return OldQuestion()
        if not await self.quiz.keep(
            attempt, quiz, outcome, lang, self.quiz.clock(), (typed, value)
        ):
            self.quiz.forget_attempt(attempt.id)  # a second reply raced this one, or /stop did
            return OldQuestion()
        self._asked.pop(attempt.id, None)
        await self.quiz.learners.typed_question_sent(attempt.id, None)
        answered = self.quiz.accepted(quiz, outcome, judgement)
        return TypedAnswered(
            quiz, answered.attempt, index, typed, judgement.is_correct, asked, answered.score
        )

    async def _open(self, attempt: Attempt, index: int) -> Asked | None:
        """The open number question's messages, when question `index` was asked. With several
        workers (`shared`) another process may have asked it: the store is read every time."""
        known = None if self.quiz.shared else self._asked.get(attempt.id)
        if known is not None:
            return known if known.index == index else None
        # After a restart: the store keeps the asked question's message until it is answered.
        stored = await self.quiz.learners.typed_prompt(attempt.id)
        return None if stored is None else Asked(index, *stored)

    def forget_cached(self, user_id: int) -> None:
        """After /forget: nothing of the user's stays here (attempt ids are looked up lazily)."""
        del user_id
        self._asked.clear()
