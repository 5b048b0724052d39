"""Use cases of a group's lasting standings: score a run as it ends, /top, /me and /stats.

The rules (points, windows, ties) are in bot/core/scoring.py and bot/core/standings.py; this
module reads the group's settings and time zone, asks the store, and returns plain values the
adapter renders.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.clock import Clock
from bot.core.scoring import ScoringMode, ScoringRule, run_scores
from bot.core.standings import (
    Move,
    Placed,
    Window,
    moved_up,
    place_of,
    rank,
    window_start,
)
from bot.store.group_rows import GroupSettings
from bot.store.groups import GroupStore
from bot.store.run_scores import MemberGroup, StandingsStore

TOP = 10


def rule_of(settings: GroupSettings | None) -> ScoringRule:
    """The scoring a group's settings ask for (plain when unknown)."""
    if settings is None:
        return ScoringRule()
    try:
        mode = ScoringMode(settings.scoring)
    except ValueError:
        mode = ScoringMode.PLAIN
    return ScoringRule(mode, settings.streak_bonus)


def encode_rule(rule: ScoringRule) -> str:
    return f"{rule.mode}+streak" if rule.streak_bonus else str(rule.mode)


def zone(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


@dataclass(frozen=True, slots=True)
class Table:
    """Standings of a group over a window: the first `TOP` places and how many are ranked."""

    chat_id: int
    window: Window
    top: list[Placed]
    ranked: int


@dataclass(frozen=True, slots=True)
class RunStanding:
    """What the end of a run adds to its results: how it was scored, each player's points in
    this run (a second figure beside the leaderboard, which ranks by right answers and time
    like every standing), and who climbed in this week's standings."""

    rule: ScoringRule
    moves: list[Move]
    points: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MyPlaces:
    """A member's place in one group, per window (None: no points there yet)."""

    chat_id: int
    title: str
    places: dict[Window, Placed | None]


class GroupStandings:
    def __init__(self, store: StandingsStore, groups: GroupStore, clock: Clock = time.time) -> None:
        self.store = store
        self.groups = groups
        self.clock = clock

    async def _since(self, chat_id: int, window: Window) -> float | None:
        settings = await self.groups.group(chat_id)
        return window_start(window, self.clock(), zone(settings.timezone if settings else "UTC"))

    async def table(self, chat_id: int, window: Window) -> Table:
        standings = rank(await self.store.tallies(chat_id, await self._since(chat_id, window)))
        return Table(chat_id, window, [p for p in standings if p.rank <= TOP], len(standings))

    async def score_run(self, run_id: int, chat_id: int, seconds: float) -> RunStanding | None:
        """Score a run that just ended, with the group's scoring now; None if already scored."""
        settings = await self.groups.group(chat_id)
        rule = rule_of(settings)
        limit_ms = round(seconds * 1000)
        since = await self._since(chat_id, Window.WEEK)
        before = rank(await self.store.tallies(chat_id, since, exclude_run=run_id))
        scores = await self.store.score_run(
            run_id,
            chat_id,
            encode_rule(rule),
            lambda facts: run_scores(facts, rule, limit_ms),
            self.clock(),
        )
        if not scores:
            return None
        after = rank(await self.store.tallies(chat_id, since))
        points = {s.user_id: s.points for s in scores}
        return RunStanding(rule, moved_up(before, after), points)

    async def places(self, chat_id: int, user_id: int, title: str = "") -> MyPlaces:
        places: dict[Window, Placed | None] = {}
        for window in Window:
            standings = rank(await self.store.tallies(chat_id, await self._since(chat_id, window)))
            places[window] = place_of(standings, user_id)
        return MyPlaces(chat_id, title, places)

    async def across_groups(self, user_id: int) -> list[MyPlaces]:
        """The member's places in every group they have points in (for /stats in private)."""
        groups: list[MemberGroup] = await self.store.member_groups(user_id)
        return [await self.places(g.chat_id, user_id, g.title) for g in groups]

    async def member_left(self, chat_id: int, user_id: int) -> None:
        await self.store.set_present(chat_id, user_id, False, self.clock())

    async def member_joined(self, chat_id: int, user_id: int) -> None:
        await self.store.set_present(chat_id, user_id, True, self.clock())
