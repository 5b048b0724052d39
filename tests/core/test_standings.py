"""Standings: windows in the group's time zone, ranks with shared places, who moved up."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.core.standings import (
    Move,
    Placed,
    Tally,
    Window,
    moved_up,
    place_of,
    podium,
    rank,
    window_start,
)

UTC = ZoneInfo("UTC")
DAKAR = ZoneInfo("Africa/Dakar")  # UTC+0, no DST
TOKYO = ZoneInfo("Asia/Tokyo")  # UTC+9
NY = ZoneInfo("America/New_York")  # DST


def ts(text: str, tz: ZoneInfo) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=tz).timestamp()


@pytest.mark.parametrize(
    ("window", "now", "tz", "start"),
    [
        # Wednesday 2026-11-25: the week began Monday 2026-11-23
        (Window.WEEK, "2026-11-25 12:00", UTC, "2026-11-23 00:00"),
        (Window.WEEK, "2026-11-23 00:00", UTC, "2026-11-23 00:00"),
        (Window.WEEK, "2026-11-22 23:59", UTC, "2026-11-16 00:00"),  # Sunday is the week's end
        (Window.MONTH, "2026-11-25 12:00", UTC, "2026-11-01 00:00"),
        (Window.MONTH, "2026-12-01 00:30", TOKYO, "2026-12-01 00:00"),
        (Window.WEEK, "2026-11-30 08:00", TOKYO, "2026-11-30 00:00"),  # Sunday 23:00 UTC
        # New York: the week of the DST change (Sunday 2026-11-01) starts at local midnight
        (Window.WEEK, "2026-11-04 12:00", NY, "2026-11-02 00:00"),
        (Window.MONTH, "2026-03-09 12:00", NY, "2026-03-01 00:00"),
    ],
)
def test_window_start_in_the_group_time_zone(
    window: Window, now: str, tz: ZoneInfo, start: str
) -> None:
    assert window_start(window, ts(now, tz), tz) == ts(start, tz)


def test_all_time_has_no_start() -> None:
    assert window_start(Window.ALL, ts("2026-11-25 12:00", UTC), UTC) is None


def test_tokyo_week_flips_at_tokyo_midnight_not_utc() -> None:
    monday_tokyo = ts("2026-11-30 00:30", TOKYO)  # still Sunday 15:30 in UTC
    assert window_start(Window.WEEK, monday_tokyo, TOKYO) == ts("2026-11-30 00:00", TOKYO)
    assert window_start(Window.WEEK, monday_tokyo, UTC) == ts("2026-11-23 00:00", UTC)


def t(uid: int, name: str, points: int, correct: int) -> Tally:
    return Tally(uid, name, points, correct, 1)


@pytest.mark.parametrize(
    ("tallies", "expected"),
    [
        ([], []),
        ([t(1, "A", 3, 3), t(2, "B", 5, 5)], [(2, 1, False), (1, 2, False)]),
        # equal points: more right answers first
        ([t(1, "A", 1500, 2), t(2, "B", 1500, 3)], [(2, 1, False), (1, 2, False)]),
        # equal on both: shared place, listed by name; the next place skips (1, 1, 3)
        (
            [t(3, "zoe", 4, 4), t(1, "Ana", 4, 4), t(2, "Bo", 1, 1)],
            [(1, 1, True), (3, 1, True), (2, 3, False)],
        ),
        (
            [t(1, "A", 9, 9), t(2, "B", 4, 4), t(3, "C", 4, 4), t(4, "D", 4, 4), t(5, "E", 0, 0)],
            [(1, 1, False), (2, 2, True), (3, 2, True), (4, 2, True), (5, 5, False)],
        ),
    ],
)
def test_rank(tallies: list[Tally], expected: list[tuple[int, int, bool]]) -> None:
    assert [(p.tally.user_id, p.rank, p.shared) for p in rank(tallies)] == expected


def test_moved_up_and_podium() -> None:
    before = rank([t(1, "A", 5, 5), t(2, "B", 4, 4), t(3, "C", 3, 3)])
    after = rank([t(1, "A", 5, 5), t(2, "B", 4, 4), t(3, "C", 6, 6), t(4, "D", 9, 9)])
    # C climbs 3 -> 2; A and B are pushed down; D is new (no place to climb from)
    assert moved_up(before, after) == [Move(3, "C", 3, 2)]
    assert [p.tally.user_id for p in podium(after)] == [4, 3, 1]
    assert place_of(after, 2) == Placed(4, t(2, "B", 4, 4))
    assert place_of(after, 99) is None


def test_podium_keeps_a_tie_for_third() -> None:
    standings = rank([t(1, "A", 9, 9), t(2, "B", 8, 8), t(3, "C", 7, 7), t(4, "D", 7, 7)])
    assert [p.rank for p in podium(standings)] == [1, 2, 3, 3]
