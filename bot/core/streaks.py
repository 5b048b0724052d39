"""Whether a learner's streak of active days is about to break, for the daily reminder.

A streak counts consecutive days with at least one answer or review, ending today or yesterday
(bot/core/stats.streak). At reminder time a streak is *at risk* when it is alive but today has no
activity yet: the day ends without one and it falls back to zero. That is when a gentle note is
worth a message even with no review due.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from bot.core.stats import streak


@dataclass(frozen=True, slots=True)
class StreakStatus:
    days: int  # the current streak (0: none)
    at_risk: bool  # alive, but nothing done today yet


def streak_status(active_days: Iterable[date], today: date) -> StreakStatus:
    days = set(active_days)
    current = streak(days, today)
    return StreakStatus(current, current > 0 and today not in days)
