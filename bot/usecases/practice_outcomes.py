"""What /practice and /exam answer (bot/usecases/practice_session.py, which decides them): the
question to show (`PracticeQuestion`, with an exam's clock), an answer's verdict and what
follows (`PracticeAnswered`), and the refusals and timer outcomes (`NothingMatches`,
`PracticeClosed`, `ExamTimeIsUp`, `ExamWaits`), /stop's `ExamStopped`, and the exams a restart
re-arms (`RunningExam`). Apart so that the renderers name what they draw without the session.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.engine import Judgement
from bot.core.exam import Exam
from bot.core.models import Question, Quiz


@dataclass(frozen=True, slots=True)
class PracticeQuestion:
    """Question `index` of set `set_id`, with its options in display order; `exam` is the
    exam's clock as of this question (None in practice)."""

    set_id: int
    index: int
    total: int
    quiz: Quiz
    question: Question
    order: tuple[int, ...]
    exam: Exam | None = None


@dataclass(frozen=True, slots=True)
class NothingMatches:
    """No quiz matches the choice (or a forged length): nothing started."""


@dataclass(frozen=True, slots=True)
class ExamUnderWay:
    """The same exam started moments ago and not yet answered: the second tap of a double tap
    on its clock choice, which starts nothing (the first tap's question is on its way)."""


@dataclass(frozen=True, slots=True)
class PracticeAnswered:
    asked: PracticeQuestion
    judgement: Judgement | None  # None: the time was up, the tap did not count
    following: PracticeQuestion | None  # None once the set is over
    correct: int  # right answers so far
    missed: int  # questions missed so far (in practice each joined the review queue)
    # Once an exam is over: every question with its mark (r, w, t), for the explanations.
    marked: tuple[tuple[PracticeQuestion, str], ...] = ()
    # ...and the option id each picked, as `marked` ("" when none, or not stored: before 031)
    picked: tuple[str, ...] = ()

    @property
    def is_exam(self) -> bool:
        return self.asked.exam is not None


@dataclass(frozen=True, slots=True)
class PracticeClosed:
    """Not this learner's set, already answered, or the set is over: nothing changed."""


@dataclass(frozen=True, slots=True)
class ExamTimeIsUp:
    """A tap on an exam question whose time ran out (its timer counted it missed): nothing
    changed, and the learner is told why."""


@dataclass(frozen=True, slots=True)
class ExamWaits:
    """An exam timer fired before its deadline on the bot's clock: arm it again."""

    delay: float


@dataclass(frozen=True, slots=True)
class ExamStopped:
    """/stop ended the learner's exam `set_id` after `answered` of `total` questions; its misses
    joined the review queue."""

    set_id: int
    answered: int
    total: int
    correct: int


@dataclass(frozen=True, slots=True)
class RunningExam:
    """An exam still running at start-up: its timer is due at `deadline`."""

    set_id: int
    user_id: int
    index: int
    deadline: float
