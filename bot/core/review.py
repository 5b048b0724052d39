"""Spaced review of missed questions: Leitner boxes, and due dates on the learner's calendar.

A miss puts a question in box 1; each right answer in review moves it up one box and pushes it
further out (1, 3, 7, 14, 30 days); a right answer in the last box masters it (it leaves the
queue); a wrong answer in review sends it back to box 1. Due dates fall on the *start of a day in
the learner's time zone*, not "24 hours later": a question missed at 23:50 is due when that
learner's next day begins, as a learner expects "tomorrow" to mean.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from bot.core.schedule import ScheduleError, parse_time

# Days until the next review for a question in box 1..5.
INTERVALS: tuple[int, ...] = (1, 3, 7, 14, 30)
FIRST_BOX = 1
LAST_BOX = len(INTERVALS)


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """A question in a learner's review queue; keyed by question *id*, so reordering is safe."""

    user_id: int
    quiz_id: str
    question_id: str
    box: int
    due_at: float  # Unix time: the start of the learner's day it becomes due
    last_seen_at: float

    def is_due(self, now: float) -> bool:
        return self.due_at <= now


def local_day(moment: float, tz: tzinfo) -> date:
    """The calendar day a Unix time falls on in `tz`."""
    return datetime.fromtimestamp(moment, tz).date()


def start_of_day(day: date, tz: tzinfo) -> float:
    """Unix time of 00:00 on `day` in `tz` (the first valid instant where DST skips midnight)."""
    local = datetime(day.year, day.month, day.day, tzinfo=tz)
    # A DST gap at midnight (e.g. America/Santiago) makes 00:00 nonexistent; zoneinfo maps it
    # forward by fold rules, which is the moment the day really begins.
    return local.timestamp()


def due_after(moment: float, days: int, tz: tzinfo) -> float:
    """The start of the learner's day `days` days after the day `moment` falls on."""
    return start_of_day(local_day(moment, tz) + timedelta(days=days), tz)


def after_miss(user_id: int, quiz_id: str, question_id: str, at: float, tz: tzinfo) -> ReviewItem:
    """A question missed at `at` (in a quiz, a group run or a review): box 1, due tomorrow."""
    return ReviewItem(user_id, quiz_id, question_id, FIRST_BOX, due_after(at, INTERVALS[0], tz), at)


def after_review(item: ReviewItem, correct: bool, at: float, tz: tzinfo) -> ReviewItem | None:
    """The item once reviewed at `at`: promoted, demoted to box 1, or None when mastered."""
    if not correct:
        return after_miss(item.user_id, item.quiz_id, item.question_id, at, tz)
    if item.box >= LAST_BOX:
        return None
    box = item.box + 1
    return ReviewItem(
        item.user_id, item.quiz_id, item.question_id, box, due_after(at, INTERVALS[box - 1], tz), at
    )


def parse_clock(text: str) -> str | None:
    """'7:30', '07:30', or the French '7h30', as 'HH:MM' (the forms /schedule accepts too);
    None unless it is a time of day ('25:00' is not)."""
    try:
        hour, minute = parse_time(text)
    except ScheduleError:
        return None
    return f"{hour:02d}:{minute:02d}"


def review_order(option_count: int, rng: random.Random, shuffle: bool = True) -> tuple[int, ...]:
    """A fresh display order for a review, so the learner recalls the answer, not its letter
    (kept as written with `shuffle` off: true/false reads True, False)."""
    order = list(range(option_count))
    if shuffle:
        rng.shuffle(order)
    return tuple(order)


def encode_order(order: tuple[int, ...]) -> str:
    """An order as digits for callback data (at most 10 options, so one digit each)."""
    return "".join(str(i) for i in order)


def decode_order(text: str, option_count: int) -> tuple[int, ...] | None:
    """The order a button carried, or None unless it is a permutation of the options."""
    if not text.isdigit() or len(text) != option_count:
        return None
    order = tuple(int(c) for c in text)
    return order if sorted(order) == list(range(option_count)) else None
