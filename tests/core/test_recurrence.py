"""Daily rules as moments: next day, next allowed weekday, time zones, DST."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.core.recurrence import next_daily

DAKAR, PARIS = ZoneInfo("Africa/Dakar"), ZoneInfo("Europe/Paris")


def at(text: str, tz: object = UTC) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=tz).timestamp()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("now", "hour", "minute", "days", "expected"),
    [
        ("2026-11-30 10:00", 18, 30, range(7), "2026-11-30 18:30"),  # later today (a Monday)
        ("2026-11-30 18:30", 18, 30, range(7), "2026-12-01 18:30"),  # exactly now: tomorrow
        ("2026-11-30 19:00", 18, 30, range(7), "2026-12-01 18:30"),
        ("2026-12-04 19:00", 8, 0, range(5), "2026-12-07 08:00"),  # Friday evening -> Monday
        ("2026-11-30 19:00", 9, 0, (0,), "2026-12-07 09:00"),  # Mondays only: a week on
    ],
)
def test_next_daily(now: str, hour: int, minute: int, days: range, expected: str) -> None:
    assert next_daily(at(now, DAKAR), hour, minute, DAKAR, tuple(days)) == at(expected, DAKAR)


def test_time_zones_and_daylight_saving() -> None:
    # 02:30 does not exist in Paris on 2026-03-29 (clocks go 02:00 -> 03:00).
    gap = next_daily(at("2026-03-29 00:00", PARIS), 2, 30, PARIS, tuple(range(7)))
    assert datetime.fromtimestamp(gap, PARIS).hour == 3
    # Across the change the rule keeps its wall time: 18:00 Paris is 17:00 UTC, then 16:00.
    before = next_daily(at("2026-03-28 12:00", PARIS), 18, 0, PARIS, tuple(range(7)))
    after = next_daily(before, 18, 0, PARIS, tuple(range(7)))
    assert datetime.fromtimestamp(before, UTC).hour == 17
    assert datetime.fromtimestamp(after, UTC).hour == 16


def test_no_days_is_refused() -> None:
    with pytest.raises(ValueError):
        next_daily(0.0, 8, 0, UTC, ())
