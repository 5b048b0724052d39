"""Durable timers as the bot uses them: run timers resume, daily ones re-arm before running."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import asyncpg

from bot.store.pg.timers import TimerQueue
from bot.tg.wire.timer_backends import PgTimers

MONDAY_10H = datetime(2026, 11, 30, 10, 0, tzinfo=UTC).timestamp()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_once_fires_its_handler_with_its_arguments(pg_pool: asyncpg.Pool) -> None:
    clock = Clock(MONDAY_10H)
    timers = PgTimers(TimerQueue(pg_pool, "w"), clock)
    calls: list[tuple[int, ...]] = []

    async def run(*args: int) -> None:
        calls.append(args)

    timers.on("run", run)
    await timers.once("run", 7, 30.0, 2)
    await timers.once("run", 7, 20.0, 3)  # the next question: replaces the timer
    assert await timers.queue.claim_due(clock.now + 19) == []
    [due] = await timers.queue.claim_due(clock.now + 20)
    await timers.fire(due)
    await timers.queue.fired(due)
    assert calls == [(7, 3)]
    assert await timers.queue.armed() == {}


async def test_ensure_arms_only_a_missing_timer(pg_pool: asyncpg.Pool) -> None:
    clock = Clock(MONDAY_10H)
    timers = PgTimers(TimerQueue(pg_pool, "w"), clock)
    await timers.once("run", 1, 30.0)
    await timers.ensure("run", 1)  # armed already: its deadline stays
    await timers.ensure("run", 2)  # none: due now
    assert await timers.queue.armed() == {"run:1": MONDAY_10H + 30, "run:2": MONDAY_10H}


async def test_daily_rearms_for_the_next_day_before_running(pg_pool: asyncpg.Pool) -> None:
    clock = Clock(MONDAY_10H)
    timers = PgTimers(TimerQueue(pg_pool, "w"), clock)
    seen: list[dict[str, float]] = []

    async def schedule(ident: int) -> None:
        seen.append(await timers.queue.armed())  # what is armed while the handler runs

    timers.on("sched", schedule)
    await timers.daily("sched", 4, (18, 30), "UTC", (0, 2))  # Mondays and Wednesdays
    monday = datetime(2026, 11, 30, 18, 30, tzinfo=UTC).timestamp()
    wednesday = datetime(2026, 12, 2, 18, 30, tzinfo=UTC).timestamp()
    assert await timers.queue.armed() == {"sched:4": monday}
    clock.now = monday + 1
    [due] = await timers.queue.claim_due(clock.now)
    await timers.fire(due)
    await timers.queue.fired(due)  # the old arming: the re-armed one stays
    assert seen == [{"sched:4": wednesday}]
    assert await timers.queue.armed() == {"sched:4": wednesday}
    await timers.cancel("sched", 4)
    assert await timers.queue.armed() == {}


async def test_an_unreadable_or_unknown_timer_is_dropped(pg_pool: asyncpg.Pool) -> None:
    timers = PgTimers(TimerQueue(pg_pool, "w"), Clock(MONDAY_10H))
    await timers.queue.arm("x:1", 0.0, "not json")
    await timers.queue.arm("nobody:1", 0.0, json.dumps({"kind": "nobody", "args": [1]}))
    for due in await timers.queue.claim_due(MONDAY_10H):
        await timers.fire(due)  # logged and dropped, never raised


async def test_a_workers_start_keeps_a_daily_occurrence_missed_while_all_were_down(
    pg_pool: asyncpg.Pool,
) -> None:
    """Every worker arms every schedule again at its start: an occurrence that came due while
    no worker ran stays due (a worker plays it late), unless it is more than an hour late."""
    clock = Clock(MONDAY_10H)
    timers = PgTimers(TimerQueue(pg_pool, "w"), clock)
    played: list[int] = []

    async def schedule(ident: int) -> None:
        played.append(ident)

    timers.on("sched", schedule)
    monday = datetime(2026, 11, 30, 18, 30, tzinfo=UTC).timestamp()
    wednesday = datetime(2026, 12, 2, 18, 30, tzinfo=UTC).timestamp()
    for ident in (4, 5):
        await timers.daily("sched", ident, (18, 30), "UTC", (0, 2))
    clock.now = monday + 10 * 60  # every worker was down at 18:30; one starts at 18:40
    await timers.daily("sched", 4, (18, 30), "UTC", (0, 2))  # the same rule: kept
    await timers.daily("sched", 5, (19, 0), "UTC", (0, 2))  # a new rule: armed anew
    monday_19h = datetime(2026, 11, 30, 19, 0, tzinfo=UTC).timestamp()
    assert await timers.queue.armed() == {"sched:4": monday, "sched:5": monday_19h}
    [due] = await timers.queue.claim_due(clock.now)
    await timers.fire(due)
    await timers.queue.fired(due)
    assert played == [4]
    assert (await timers.queue.armed())["sched:4"] == wednesday

    clock.now = wednesday + 61 * 60  # down again, back more than an hour late
    await timers.daily("sched", 4, (18, 30), "UTC", (0, 2))
    assert (await timers.queue.armed())["sched:4"] == monday + 7 * 86400
    assert played == [4]


async def test_a_daily_occurrence_more_than_an_hour_late_is_not_played(
    pg_pool: asyncpg.Pool,
) -> None:
    """A worker may claim a stale timer before its start re-arms it: it moves the timer on
    without playing it."""
    clock = Clock(MONDAY_10H)
    timers = PgTimers(TimerQueue(pg_pool, "w"), clock)
    played: list[int] = []

    async def schedule(ident: int) -> None:
        played.append(ident)

    timers.on("sched", schedule)
    await timers.daily("sched", 4, (18, 30), "UTC", (0, 2))
    wednesday = datetime(2026, 12, 2, 18, 30, tzinfo=UTC).timestamp()
    clock.now = datetime(2026, 11, 30, 20, 0, tzinfo=UTC).timestamp()
    [due] = await timers.queue.claim_due(clock.now)
    await timers.fire(due)
    await timers.queue.fired(due)
    assert played == []
    assert await timers.queue.armed() == {"sched:4": wednesday}
