"""The dashboard's arithmetic: weeks in a time zone, which questions are hardest, start parameters.

Pure functions over plain values, so the numbers the Mini App shows can be tested with tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from bot.core.stats import QuestionStats

WEEKS_SHOWN = 12


def group_start_param(chat_id: int) -> str:
    """The Mini App start parameter that opens a group's page (Telegram allows A-Z a-z 0-9 _ -)."""
    return f"g{chat_id}"


# Telegram's ids have at most 52 significant bits: anything beyond is no chat (and would not fit
# the database's 64-bit integer column).
MAX_CHAT_ID = 2**52 - 1


def chat_of(text: str | None) -> int | None:
    """The chat a start parameter (`g-100123`) or a query value (`-100123`) names, if any."""
    if not text:
        return None
    raw = text[1:] if text.startswith("g") else text
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if 0 < abs(value) <= MAX_CHAT_ID else None


def week_of(moment: float, tz: tzinfo) -> date:
    """The Monday starting the week `moment` falls in, in time zone `tz`."""
    day = datetime.fromtimestamp(moment, tz).date()
    return day - timedelta(days=day.weekday())


@dataclass(frozen=True, slots=True)
class Week:
    start: date  # a Monday
    count: int = 0  # answers (learner) or runs (group)
    right: int = 0  # right answers (learner) or members taking part, summed over runs (group)

    @property
    def ratio(self) -> float:
        return self.right / self.count if self.count else 0.0


def weeks(
    rows: Iterable[tuple[float, int]], tz: tzinfo, now: float, shown: int = WEEKS_SHOWN
) -> list[Week]:
    """`shown` weeks ending with this one, oldest first, each summing (moment, value) rows:
    `count` counts the rows, `right` sums their values. Older rows are left out."""
    last = week_of(now, tz)
    starts = [last - timedelta(weeks=n) for n in range(shown - 1, -1, -1)]
    totals = {start: [0, 0] for start in starts}
    for moment, value in rows:
        bucket = totals.get(week_of(moment, tz))
        if bucket is not None:
            bucket[0] += 1
            bucket[1] += value
    return [Week(start, *totals[start]) for start in starts]


def hardest(stats: Iterable[QuestionStats], limit: int = 10) -> list[QuestionStats]:
    """Questions by share of right answers, lowest first; more answers first on a tie."""
    answered = [s for s in stats if s.overall.total]
    answered.sort(key=lambda s: (s.overall.ratio, -s.overall.total, s.quiz_id, s.question_id))
    return answered[:limit]
