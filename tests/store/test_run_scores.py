"""Lasting standings on a real database: runs across week and month boundaries in the group's
time zone, both scoring modes, ties, members who left, and who moved up after a run."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.core.scoring import ScoringMode
from bot.core.standings import Window
from bot.store import Database, GroupStore
from bot.store.run_scores import StandingsStore
from bot.usecases.group_standings import GroupStandings

CHAT = -100
TOKYO = ZoneInfo("Asia/Tokyo")


def tokyo(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=TOKYO).timestamp()


class HandClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def play(
    groups: GroupStore,
    standings: GroupStandings,
    clock: HandClock,
    ended: str,
    answers: dict[int, list[tuple[bool, int]]],
) -> int:
    """A run of len(answers[...]) questions that ends at `ended` (Tokyo time): per member, per
    question, (right?, elapsed ms); members answer in the order given."""
    end = tokyo(ended)
    questions = max(len(a) for a in answers.values())
    run_id = await groups.start_run(CHAT, 1, "quiz", "[]", 10.0, end - 60)
    assert run_id is not None
    for index in range(questions):
        await groups.open_question(run_id, index, end - 50 + index, end)
        for user, given in answers.items():
            if index < len(given) and given[index] is not None:
                right, ms = given[index]
                await groups.record_answer(
                    run_id,
                    index,
                    user,
                    f"M{user}",
                    "en",
                    1 if right else 0,
                    right,
                    "en",
                    end - 40 + index,
                    ms,
                    question_id=f"q{index}",
                    option_id="o1" if right else "o0",
                    version="v1",
                )
        await groups.close_question(run_id, index)
    assert await groups.finish_run(run_id, "finished", end)
    clock.now = end
    return run_id


async def setup(db: Database) -> tuple[GroupStore, GroupStandings, HandClock]:
    groups = GroupStore(db)
    await groups.ensure_group(CHAT, "Study", "en", 10, "Asia/Tokyo", 1.0)
    clock = HandClock()
    return groups, GroupStandings(StandingsStore(db), groups, clock), clock


def table(placed: list) -> list[tuple[int, int, int, bool]]:  # type: ignore[type-arg]
    """(place, member, right answers, shared): standings rank by right answers, then time."""
    return [(p.rank, p.tally.user_id, p.tally.correct, p.shared) for p in placed]


R, W = (True, 1000), (False, 1000)


async def test_windows_follow_the_group_time_zone(db: Database) -> None:
    groups, standings, clock = await setup(db)
    # Sunday night in Tokyo: last week, November
    run1 = await play(groups, standings, clock, "2026-11-29 23:30", {1: [R, R, R], 2: [R, W, W]})
    await standings.score_run(run1, CHAT, 10.0)
    # Monday 00:30 in Tokyo (still Sunday in UTC): this week, November
    run2 = await play(groups, standings, clock, "2026-11-30 00:30", {2: [R, R, R], 3: [R, R, W]})
    await standings.score_run(run2, CHAT, 10.0)
    # Tuesday: this week, and a new month
    run3 = await play(groups, standings, clock, "2026-12-01 10:00", {3: [R, W, W], 1: [W, W, R]})
    await standings.score_run(run3, CHAT, 10.0)
    clock.now = tokyo("2026-12-02 12:00")

    week = await standings.table(CHAT, Window.WEEK)
    month = await standings.table(CHAT, Window.MONTH)
    ever = await standings.table(CHAT, Window.ALL)
    # 2 and 3: 3 right answers each, 2 in 3 s, 3 in 6 s: the faster first
    assert table(week.top) == [(1, 2, 3, False), (2, 3, 3, False), (3, 1, 1, False)]
    assert table(month.top) == [(1, 1, 1, True), (1, 3, 1, True)]
    # 1 and 2: 4 right answers each in 6 s all time: they share first place
    assert table(ever.top) == [(1, 1, 4, True), (1, 2, 4, True), (3, 3, 3, False)]


async def test_speed_mode_streak_bonus_and_the_mode_kept_per_run(db: Database) -> None:
    groups, standings, clock = await setup(db)
    await groups.update_group(CHAT, "scoring", "speed", 2.0)
    await groups.update_group(CHAT, "streak_bonus", 1, 2.0)
    fast, slow = (True, 0), (True, 10_000)
    run = await play(groups, standings, clock, "2026-12-01 10:00", {1: [fast, fast], 2: [slow, W]})
    result = await standings.score_run(run, CHAT, 10.0)
    assert result is not None
    assert result.rule.mode is ScoringMode.SPEED and result.rule.streak_bonus
    # 1000 + (1000 + 100 streak) = 2100; 2: 500 (the last moment) + 0
    assert result.points == {1: 2100, 2: 500}
    assert await standings.score_run(run, CHAT, 10.0) is None  # scored once
    # switching back to plain does not rescore history
    await groups.update_group(CHAT, "scoring", "plain", 3.0)
    run2 = await play(groups, standings, clock, "2026-12-01 11:00", {2: [R]})
    await standings.score_run(run2, CHAT, 10.0)
    ever = await standings.table(CHAT, Window.ALL)
    # ranked by right answers (2 each), then time (1 was faster); points kept per run, not
    # the ranking: 2100 speed points and 500 + 1 plain ones are different units
    assert table(ever.top) == [(1, 1, 2, False), (2, 2, 2, False)]
    assert [p.tally.points for p in ever.top] == [2100, 501]


async def test_moves_up_and_members_who_left(db: Database) -> None:
    groups, standings, clock = await setup(db)
    run1 = await play(groups, standings, clock, "2026-12-01 09:00", {1: [R, R], 2: [R, W], 3: [W]})
    first = await standings.score_run(run1, CHAT, 10.0)
    assert first is not None and first.moves == []  # nobody had a place to climb from
    run2 = await play(groups, standings, clock, "2026-12-01 10:00", {3: [R, R], 2: [R, R]})
    second = await standings.score_run(run2, CHAT, 10.0)
    assert second is not None
    # 2 climbs 2 -> 1; 3 ties 1 on right answers (2) but took longer (3 s to 2 s): stays 3rd
    assert [(m.user_id, m.before, m.after) for m in second.moves] == [(2, 2, 1)]
    await standings.member_left(CHAT, 2)
    week = await standings.table(CHAT, Window.WEEK)
    assert [p.tally.user_id for p in week.top] == [1, 3]  # 2 left: history kept, not listed
    assert [g.chat_id for g in await standings.store.member_groups(2)] == []
    await standings.member_joined(CHAT, 2)
    week = await standings.table(CHAT, Window.WEEK)
    assert [p.tally.user_id for p in week.top] == [2, 1, 3]
    mine = await standings.across_groups(3)
    assert [(m.title, m.places[Window.ALL].rank) for m in mine if m.places[Window.ALL]] == [
        ("Study", 3)
    ]
