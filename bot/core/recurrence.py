"""When a daily rule ("weekdays at 18:30 in Africa/Dakar") fires next, as a moment in time.

PTB's JobQueue computes this itself for its in-memory daily jobs; durable timers shared by
several workers (bot/store/pg/timers.py) store one moment at a time and ask for the next one
after each firing, so the rule is computed here, purely.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time, timedelta, tzinfo


def next_daily(now: float, hour: int, minute: int, tz: tzinfo, days: Sequence[int]) -> float:
    """The first moment after `now` that is `hour:minute` in `tz` on one of `days` (0 = Monday).

    A wall time that does not exist that day (skipped by a DST change) is taken as the moment
    the same number of minutes after the day's midnight would be; one that happens twice is the
    first of the two.
    """
    if not days:
        raise ValueError("a daily rule needs at least one day")
    today = datetime.fromtimestamp(now, tz).date()
    for ahead in range(8):
        day = today + timedelta(days=ahead)
        if day.weekday() not in days:
            continue
        moment = datetime.combine(day, time(hour, minute), tzinfo=tz).timestamp()
        if moment > now:
            return moment
    raise AssertionError("unreachable: every weekday occurs within 8 days")


# How late a daily occurrence missed while the bot was down still plays, once, when it is back
# (a scheduled quiz, a review reminder): a restart at 09:00 should not cost a group its 09:00
# quiz, but a Monday quiz played on Tuesday, or a reminder at 3 a.m., would surprise more than
# it helps. Both backends follow it (bot/tg/wire/timer_backends.py).
MISSED_PLAYS_WITHIN = 3600.0
