"""Exam mode: a quiz against a clock, per question or for the whole quiz.

Every decision takes `now` from the caller's Clock, so tests move time by hand (no sleeps). An
answer given after its time counts as missed; when a total clock runs out, the questions not
answered yet are missed too. Explanations wait for the end: this module only says whether time
allows an answer and how much is left.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ExamClock(StrEnum):
    PER_QUESTION = "q"  # `seconds` for each question, from the moment it is shown
    TOTAL = "t"  # `seconds` for the whole quiz, from the moment it starts


PER_QUESTION_CHOICES = (15, 30, 60)  # seconds for each question
TOTAL_CHOICES = (300, 600, 1200)  # seconds for the whole quiz (5, 10, 20 minutes)


@dataclass(frozen=True, slots=True)
class Exam:
    """An exam's clock: started at `started_at`, the current question shown at `shown_at`."""

    clock: ExamClock
    seconds: float
    started_at: float
    shown_at: float

    def deadline(self) -> float:
        """When the current question stops taking answers."""
        if self.clock is ExamClock.PER_QUESTION:
            return self.shown_at + self.seconds
        return self.started_at + self.seconds

    def left(self, now: float) -> float:
        """Seconds left for the current answer (0 when time is up)."""
        return max(0.0, self.deadline() - now)

    def accepts(self, now: float) -> bool:
        """Whether an answer given at `now` counts."""
        return now <= self.deadline()

    def over(self, now: float) -> bool:
        """Whether the whole exam is over (a total clock ran out)."""
        return self.clock is ExamClock.TOTAL and now > self.deadline()

    def shown(self, now: float) -> Exam:
        """The clock once the next question is shown at `now`."""
        return Exam(self.clock, self.seconds, self.started_at, now)


def start_exam(clock: ExamClock, seconds: float, now: float) -> Exam:
    if seconds <= 0:
        raise ValueError("an exam needs a positive time")
    return Exam(clock, seconds, now, now)
