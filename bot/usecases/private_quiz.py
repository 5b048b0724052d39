"""The private quiz's life, one use case per tap: start, continue, next, flip, stop, mistakes;
the one ownership check of every tap on an attempt, and the attempts kept in memory. Answers
to it are taken by `TakingAnswers` (private_answers.py: a tap, a rating, a select-all
question's toggles and Submit, and keeping an answer of any kind), which `PrivateQuiz` is, and
by `TypedAnswers` (private_replies.py: a number typed in reply). A tap's outcomes `Answered`
and `AlreadyAnswered` are named here too, for whoever takes a whole attempt through this module
(the use-case tests).

Each takes plain values and returns a typed outcome the adapter only renders. Ownership of an
attempt is checked once, in `owned`; what comes after an answer (the next question or the
result) is decided here, not in a handler. Attempts are kept in memory after first use by the
`KeptAttempts` the composition root gives (bot/usecases/kept_attempts.py): with one process the
cache cannot go stale, and a tap then costs one SQLite write (whether an exam runs is kept too:
PracticeSession.exam_running, docs/caches.md); with several workers it is `NoKeptAttempts`, and
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
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from bot.core.clock import Clock
from bot.core.engine import (
    Attempt,
    OptionOrders,
    Score,
    Status,
    new_attempt,
    orders_match,
    score,
)
from bot.core.limits import DEEP_LINK_PAYLOAD
from bot.core.models import Catalog, Quiz
from bot.core.review import ReviewItem
from bot.store import LearnerStore
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.group_run_outcomes import closest_quiz
from bot.usecases.kept_attempts import CACHE_SIZE as CACHE_SIZE  # named here too
from bot.usecases.kept_attempts import KeptAttempts, Lru
from bot.usecases.outcomes import AlreadyAnswered as AlreadyAnswered  # named here too
from bot.usecases.outcomes import Closed, NotYours
from bot.usecases.private_answers import Answered as Answered  # named here too
from bot.usecases.private_answers import InExam, TakingAnswers

# -- outcomes ---------------------------------------------------------------------------------


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
    suggestion: str | None = None  # a link's closest quiz id, for "did you mean ...?"


@dataclass(frozen=True, slots=True)
class StartChoice:
    """A quiz answered in part is running: the learner chooses to continue it or to start
    `wanted` (the same quiz over, or another), rather than lose it silently."""

    running: ShowQuestion
    wanted: Quiz


NextOutcome = ShowQuestion | ShowResult | AlreadyShown | NotYours | Closed | InExam
ResumeOutcome = ShowQuestion | NotYours | Closed | InExam
AbandonOutcome = Abandoned | NotYours | Closed
MistakesOutcome = Mistakes | NotYours | Closed | InExam
StartOutcome = ShowQuestion | StartChoice | UnknownQuiz | InExam


class PrivateQuiz(ServesCatalog, TakingAnswers):
    """One private attempt's life; its answers are taken as a `TakingAnswers`."""

    # Whether a learner is in an exam (PracticeSession.exam_running); None: exams never wait.
    exam_running: Callable[[int], Awaitable[bool]] | None = None

    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        learners: LearnerStore,
        *,
        clock: Clock = time.time,
        rng: random.Random | None = None,
        kept: KeptAttempts | None = None,
        exam_running: Callable[[int], Awaitable[bool]] | None = None,
        flashcard_rated: Callable[[int, str, str, int], Awaitable[ReviewItem]] | None = None,
    ) -> None:
        self.exam_running = exam_running
        self.flashcard_rated = flashcard_rated
        self._catalog_ref = catalog_ref(catalog)
        self.learners = learners
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        # Attempts between taps: kept by one process, none with several workers (compose.py).
        self._kept = kept if kept is not None else KeptAttempts()
        self._shown: Lru[int] = Lru()  # attempt id -> highest question index shown
        # attempt id -> the quiz and orders found to fit it: checked once, not on every tap.
        self._fits: Lru[tuple[Quiz, OptionOrders]] = Lru()

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
        self._kept.forget_active(user_id)
        self._remember(attempt)
        return ShowQuestion(quiz, attempt, 0)

    def linked(self, payload: str) -> Quiz | UnknownQuiz:
        """The quiz a private `/start <payload>` link names: its id in any capitals (a link
        retyped by hand), as a group's link finds it; else none, with the closest id."""
        if not DEEP_LINK_PAYLOAD.fullmatch(payload):
            return UnknownQuiz()
        near = closest_quiz(payload, list(self.catalog.quizzes))
        found = self.catalog.quiz(near) if near else None
        if found is not None and found.id.casefold() == payload.casefold():
            return found
        return UnknownQuiz(near)

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
        self._kept.forget_active(user_id)
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

    # -- moving through a running attempt ----------------------------------------------------

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
        if attempt.status is not Status.FINISHED:
            # Its button comes with the result only. A forged one on an attempt still running, or
            # left, listed every unanswered question with its right answer, the one on screen too.
            return Closed()
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
        fits = self._fits.get(attempt.id)
        if fits is not None and fits[0] is quiz and fits[1] is attempt.orders:
            return quiz  # the same objects as last checked (an attempt's orders never change)
        if not orders_match(quiz, attempt.orders):
            return None
        self._fits.remember(attempt.id, (quiz, attempt.orders))
        return quiz

    async def _attempt(self, attempt_id: int) -> Attempt | None:
        cached = self._kept.get(attempt_id)
        if cached is not None:
            return cached
        attempt = await self.learners.attempt(attempt_id)
        if attempt is not None:
            self._remember(attempt)
        return attempt

    def forget_attempt(self, attempt_id: int) -> None:
        """Drop a cached attempt after a lost race: the next look-up reads the store."""
        self._kept.forget(attempt_id)

    def _claim_showing(self, attempt_id: int, question_index: int) -> bool:
        if self._shown.get(attempt_id, -1) >= question_index:
            return False
        self._shown.remember(attempt_id, question_index)
        return True

    def _remember(self, attempt: Attempt) -> None:
        self._kept.remember(attempt)

    def forget_cached(self, user_id: int) -> None:
        """After /forget: none of the user's attempts stays in memory."""
        for key in self._kept.forget_user(user_id):
            self._shown.pop(key, None)
