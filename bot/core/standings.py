"""A group's lasting standings: which runs a window holds, how members rank, who moved up.

A run counts in the window that holds its end (a run started Sunday 23:58 and finished Monday
00:03 counts for the new week). Weeks start on Monday at 00:00 and months on the 1st at 00:00,
in the group's time zone, so "this week" flips at the group's midnight, not UTC's.

One rule everywhere (a run's leaderboard, /top, /me, /stats and the dashboard): more right
answers first; equal right answers, the shorter total answer time first; equal on both, the
members share the place (competition ranking, "1, 2, 2, 4"), listed by name. Points are not
the ranking: a speed run's points (up to 1,000 a right answer) and a plain run's (1 a right
answer) are different units, and adding them made a member's place mostly say which runs were
played in speed mode (issue 28). A run's points are shown beside its own results only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta, tzinfo
from enum import StrEnum


class Window(StrEnum):
    WEEK = "w"
    MONTH = "m"
    ALL = "a"


def window_start(window: Window, now: float, tz: tzinfo) -> float | None:
    """The moment the window began (Unix seconds), None for all time."""
    if window is Window.ALL:
        return None
    today = datetime.fromtimestamp(now, tz).date()
    if window is Window.WEEK:
        first = today - timedelta(days=today.weekday())
    else:
        first = today.replace(day=1)
    return datetime.combine(first, time(0, 0), tzinfo=tz).timestamp()


@dataclass(frozen=True, slots=True)
class Tally:
    """A member's results added up over a window's runs (`points`: the runs' points, shown per
    run only, never a ranking; `elapsed_ms`: total answer time, the tie-breaker)."""

    user_id: int
    name: str
    points: int
    correct: int
    runs: int
    answered: int = 0
    elapsed_ms: int = 0


@dataclass(frozen=True, slots=True)
class Placed:
    """A member's place in the standings; `shared` when someone else holds the same place."""

    rank: int
    tally: Tally
    shared: bool = False


def _key(t: Tally) -> tuple[int, int]:
    return (-t.correct, t.elapsed_ms)


def rank(tallies: Iterable[Tally]) -> list[Placed]:
    """Standings in order: right answers, then time; shared places for members equal on both."""
    ordered = sorted(tallies, key=lambda t: (*_key(t), t.name.casefold(), t.user_id))
    counts: dict[tuple[int, int], int] = {}
    for t in ordered:
        counts[_key(t)] = counts.get(_key(t), 0) + 1
    placed: list[Placed] = []
    for position, t in enumerate(ordered, start=1):
        same = bool(placed) and _key(placed[-1].tally) == _key(t)
        place = placed[-1].rank if same else position
        placed.append(Placed(place, t, counts[_key(t)] > 1))
    return placed


def place_of(standings: Sequence[Placed], user_id: int) -> Placed | None:
    for placed in standings:
        if placed.tally.user_id == user_id:
            return placed
    return None


@dataclass(frozen=True, slots=True)
class Move:
    """A member who climbed: from `before` (their place before the run) to `after`."""

    user_id: int
    name: str
    before: int
    after: int


def moved_up(before: Sequence[Placed], after: Sequence[Placed]) -> list[Move]:
    """Members ranked before and after a run whose place got better, best new place first.

    A member's first points of the window are not a move: they had no place to climb from.
    """
    was = {p.tally.user_id: p.rank for p in before}
    moves = [
        Move(p.tally.user_id, p.tally.name, was[p.tally.user_id], p.rank)
        for p in after
        if p.tally.user_id in was and p.rank < was[p.tally.user_id]
    ]
    return sorted(moves, key=lambda m: (m.after, m.before, m.user_id))


def podium(standings: Sequence[Placed], places: int = 3) -> list[Placed]:
    """Everyone placed in the first `places` places (a tie for third shows both)."""
    return [p for p in standings if p.rank <= places]
