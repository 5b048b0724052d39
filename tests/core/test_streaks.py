"""A streak is at risk when it is alive but today has no activity yet."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from bot.core.streaks import StreakStatus, streak_status

TODAY = date(2026, 11, 30)


def days_ago(*offsets: int) -> set[date]:
    return {TODAY - timedelta(days=n) for n in offsets}


@pytest.mark.parametrize(
    ("active", "expected"),
    [
        (set(), StreakStatus(0, False)),
        (days_ago(0), StreakStatus(1, False)),
        (days_ago(1, 2, 3), StreakStatus(3, True)),  # done nothing today: about to break
        (days_ago(0, 1, 2), StreakStatus(3, False)),
        (days_ago(2, 3), StreakStatus(0, False)),  # already broken yesterday
    ],
)
def test_streak_status(active: set[date], expected: StreakStatus) -> None:
    assert streak_status(active, TODAY) == expected
