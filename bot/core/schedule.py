"""Schedules as admins type them (`next weekdays 08:30`) and which quiz "next" means.

Days are ISO weekdays counted from 0 = Monday (Python's `date.weekday()`); `ptb_days` converts
to python-telegram-bot's 0 = Sunday numbering at the one place that needs it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
FULL_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NAMED_SETS = {
    "daily": tuple(range(7)),
    "weekdays": tuple(range(5)),
    "weekends": (5, 6),
}
SPECIAL_QUIZZES = ("next", "random")
_TIME = re.compile(r"([01]?\d|2[0-3])[:h.]([0-5]\d)")


class ScheduleError(ValueError):
    """An argument that cannot be understood; `field` says which (quiz, days, time, count)."""

    def __init__(self, field: str, value: str = "") -> None:
        super().__init__(f"bad {field}: {value!r}")
        self.field = field
        self.value = value


@dataclass(frozen=True, slots=True)
class ScheduleSpec:
    quiz: str  # a quiz id, "next" or "random"
    days: tuple[int, ...]
    hour: int
    minute: int

    @property
    def time_text(self) -> str:
        return f"{self.hour:02d}:{self.minute:02d}"


def parse_days(text: str) -> tuple[int, ...]:
    """'daily', 'weekdays', 'weekends' or a comma list of day names ('mon,wed,fri')."""
    word = text.strip().lower()
    if word in NAMED_SETS:
        return NAMED_SETS[word]
    days: set[int] = set()
    for part in word.split(","):
        name = part.strip()
        if name in FULL_DAY_NAMES:
            name = name[:3]
        if name not in DAY_NAMES:
            raise ScheduleError("days", text)
        days.add(DAY_NAMES.index(name))
    return tuple(sorted(days))


def parse_time(text: str) -> tuple[int, int]:
    match = _TIME.fullmatch(text.strip())
    if not match:
        raise ScheduleError("time", text)
    return int(match.group(1)), int(match.group(2))


def parse_schedule(args: Sequence[str], quiz_ids: Collection[str]) -> ScheduleSpec:
    """`<quiz|next|random> <days> <HH:MM>`, checked against the quizzes that exist."""
    if len(args) != 3:
        raise ScheduleError("count", " ".join(args))
    quiz, days_text, time_text = args
    if quiz not in SPECIAL_QUIZZES and quiz not in quiz_ids:
        raise ScheduleError("quiz", quiz)
    days = parse_days(days_text)
    hour, minute = parse_time(time_text)
    return ScheduleSpec(quiz, days, hour, minute)


def encode_days(days: Sequence[int]) -> str:
    return ",".join(str(d) for d in sorted(set(days)))


def decode_days(text: str) -> tuple[int, ...]:
    return tuple(sorted({int(d) for d in text.split(",") if d.strip().isdigit()} & set(range(7))))


def days_label(days: Sequence[int]) -> str:
    """The shortest way to type these days again: 'daily', 'weekdays' or 'mon,wed'."""
    for name, value in NAMED_SETS.items():
        if tuple(sorted(days)) == value:
            return name
    return ",".join(DAY_NAMES[d] for d in sorted(days))


def ptb_days(days: Sequence[int]) -> tuple[int, ...]:
    """ISO weekdays (0 = Monday) as python-telegram-bot's run_daily wants them (0 = Sunday)."""
    return tuple(sorted((d + 1) % 7 for d in days))


def next_quiz(order: Sequence[str], played: Sequence[str]) -> str | None:
    """The first quiz in catalogue order among those played least: walks the catalogue without
    repeating a quiz until every one was played, then starts over."""
    if not order:
        return None
    counts = Counter(q for q in played if q in order)
    fewest = min(counts.get(q, 0) for q in order)
    return next(q for q in order if counts.get(q, 0) == fewest)
