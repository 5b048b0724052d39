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
