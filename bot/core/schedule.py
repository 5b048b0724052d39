"""Schedules as admins type them (`next weekdays 08:30`) and which quiz "next" means.

Days are ISO weekdays counted from 0 = Monday (Python's `date.weekday()`); `ptb_days` converts
to python-telegram-bot's 0 = Sunday numbering at the one place that needs it. The words of other
languages (`lun,mer`, `altine`) come in as a vocabulary built outside the core; this module only
folds case and diacritics and looks them up.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
FULL_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NAMED_SETS = {
    "daily": tuple(range(7)),
    "weekdays": tuple(range(5)),
    "weekends": (5, 6),
}
SPECIAL_QUIZZES = ("next", "random")
_LISTED_DIGITS = 6  # /unschedule's number: far more than a group's schedules
# "18:30", "18.30", "18h30", and "18h" (a whole hour, as French writes it)
_TIME = re.compile(r"([01]?\d|2[0-3])(?:[:h.]([0-5]\d)|h)", re.IGNORECASE)


def fold(word: str) -> str:
    """A typed word as the vocabularies store it: no case, no diacritics, no final dot
    ('Àjjuma' and 'ajjuma', 'lun.' and 'LUN' match)."""
    decomposed = unicodedata.normalize("NFD", word.strip())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return bare.casefold().rstrip(".")


ENGLISH_DAYS: dict[str, tuple[int, ...]] = {
    **NAMED_SETS,
    **{name: (day,) for day, name in enumerate(DAY_NAMES)},
    **{name: (day,) for day, name in enumerate(FULL_DAY_NAMES)},
}
ENGLISH_SPECIALS: dict[str, str] = {name: name for name in SPECIAL_QUIZZES}


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


def parse_days(text: str, words: Mapping[str, tuple[int, ...]] = ENGLISH_DAYS) -> tuple[int, ...]:
    """'daily', 'weekdays', 'weekends' or a comma list of day names ('mon,wed,fri'), in any
    language `words` knows (folded word -> ISO weekdays)."""
    days: set[int] = set()
    for part in text.split(","):
        found = words.get(fold(part)) if part.strip() else None
        if not found:
            raise ScheduleError("days", text)
        days.update(found)
    return tuple(sorted(days))


def parse_time(text: str) -> tuple[int, int]:
    match = _TIME.fullmatch(text.strip())
    if not match:
        raise ScheduleError("time", text)
    return int(match.group(1)), int(match.group(2) or 0)


def parse_listed(text: str) -> int | None:
    """A schedule's number as typed after /unschedule ('2', in any script's decimal digits), or
    None: `str.isdigit` also passes '²' and '①', which `int` refuses, and a number of
    thousands of digits could not even be written back in a reply."""
    text = text.strip()
    if not text.isdecimal() or len(text) > _LISTED_DIGITS:
        return None
    return int(text)


def parse_schedule(
    args: Sequence[str],
    quiz_ids: Collection[str],
    days_words: Mapping[str, tuple[int, ...]] = ENGLISH_DAYS,
    specials: Mapping[str, str] = ENGLISH_SPECIALS,
) -> ScheduleSpec:
    """`<quiz|next|random> <days> <HH:MM>`, checked against the quizzes that exist; `specials`
    maps the folded words for "next" and "random" in every language to those two."""
    if len(args) != 3:
        raise ScheduleError("count", " ".join(args))
    quiz, days_text, time_text = args
    if quiz not in quiz_ids:
        special = specials.get(fold(quiz))
        if special is None:
            raise ScheduleError("quiz", quiz)
        quiz = special
    days = parse_days(days_text, days_words)
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


def same_schedule(spec: ScheduleSpec, quiz: str, days: str, at_time: str) -> bool:
    """Whether a stored schedule (quiz, encoded days, "HH:MM") is exactly this one."""
    return (spec.quiz, encode_days(spec.days), spec.time_text) == (quiz, days, at_time)


def next_run(days: Sequence[int], at_time: str, now: datetime) -> datetime | None:
    """The next moment after `now` (aware, in the group's zone) on one of `days` at `at_time`."""
    hour, minute = parse_time(at_time)
    for ahead in range(8):
        day = now.date() + timedelta(days=ahead)
        if day.weekday() not in days:
            continue
        moment = datetime.combine(day, time(hour, minute), tzinfo=now.tzinfo)
        if moment > now:
            return moment
    return None


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
