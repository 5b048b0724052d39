"""Workers on several hosts pace the bot's sends with one shared schedule (tg/wire/shared_pace.py).

Two limiters stand for two workers on two hosts; `Schedule` is the database row's rule (GCRA,
bot/store/pg/pacing.py BotSchedule, tested on PostgreSQL in tests/workers) kept in memory.
Lower bounds are exact (never early); upper bounds are loose, for a busy machine."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

from bot.tg.wire.ratelimit import PacedRateLimiter
from bot.tg.wire.shared_pace import SharedBudget
from tests.tg.wire_kit import EPS, Wire, call


class Schedule:
    """The bot's next free slot, shared: `lease` books the next `count` slots."""

    def __init__(self) -> None:
        self.tat = 0.0
        self.down = False
        self.leases = 0

    async def lease(self, count: int, interval: float) -> list[float]:
        if self.down:
            raise OSError("database unreachable")
        self.leases += 1
        now = time.monotonic()
        start = max(self.tat, now)
        self.tat = start + count * interval
        return [start - now + i * interval for i in range(count)]

    async def pause(self, seconds: float) -> None:
        self.tat = max(self.tat, time.monotonic() + seconds)


def worker(schedule: Schedule, rate: float, share: int = 1, retry: float = 5.0) -> PacedRateLimiter:
    budget = SharedBudget(
        schedule.lease, schedule.pause, rate=rate, fallback_share=share, retry=retry
    )
    return PacedRateLimiter(overall_rate=1000, overall_limit=1000, shared=budget)


async def test_two_hosts_together_keep_one_rhythm() -> None:
    """Each worker alone may send at the bot's whole rate; together they never exceed it."""
    rate, n = 100.0, 20
    schedule = Schedule()
    a, b = worker(schedule, rate), worker(schedule, rate)
    wire_a, wire_b = Wire(), Wire()
    began = time.monotonic()
    await asyncio.gather(
        *(call(a, wire_a, "sendMessage", -1000 - i) for i in range(n)),
        *(call(b, wire_b, "sendMessage", -2000 - i) for i in range(n)),
    )
    starts = sorted(wire_a.starts() + wire_b.starts())
    assert len(starts) == 2 * n
    for k, t in enumerate(starts):
        # The k-th release of the two together is never before the schedule's k-th slot.
        assert t >= began + k / rate - EPS, (k, t - began)
    assert starts[-1] - began < 2 * n / rate + 0.5  # and both kept going
    assert schedule.leases < 2 * n  # busy workers lease several slots per trip


async def test_an_idle_worker_leaves_its_share_to_the_busy_one() -> None:
    rate, n = 100.0, 20
    schedule = Schedule()
    busy, _idle = worker(schedule, rate), worker(schedule, rate)
    wire = Wire()
    began = time.monotonic()
    await asyncio.gather(*(call(busy, wire, "sendMessage", -i - 1) for i in range(n)))
    # The whole rate, not half of it: n sends in about n intervals (loose for a busy machine).
    assert wire.starts()[-1] - began < (n - 1) / rate + 0.15


async def test_a_429_told_to_one_worker_pauses_the_other() -> None:
    schedule = Schedule()
    a, b = worker(schedule, 1000.0), worker(schedule, 1000.0)
    wire_a, wire_b = Wire(), Wire()
    wire_a.fail["sendMessage"] = 1
    wire_a.retry_after = timedelta(milliseconds=100)
    told = asyncio.create_task(call(a, wire_a, "sendMessage", -1))
    while not wire_a.calls:
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.01)  # the pause is shared as the 429 is handled
    await call(b, wire_b, "sendMessage", -2)
    refused_at = wire_a.calls[0][3]
    assert wire_b.starts()[0] >= refused_at + 0.1 - EPS
    assert await told is True


async def test_without_the_database_a_worker_paces_at_its_own_share() -> None:
    rate, share, n = 100.0, 2, 8
    schedule = Schedule()
    schedule.down = True
    limiter, wire = worker(schedule, rate, share, retry=1.5), Wire()
    await asyncio.gather(*(call(limiter, wire, "sendMessage", -i - 1) for i in range(n)))
    starts = wire.starts()
    for k, t in enumerate(starts):
        assert t >= starts[0] + k * share / rate - EPS, k
    schedule.down = False  # back: the shared schedule again, once `retry` has passed
    await call(limiter, wire, "sendMessage", -99)
    assert schedule.leases == 0  # not a trip per send while it was down
    await asyncio.sleep(1.5)
    await call(limiter, wire, "sendMessage", -100)
    assert schedule.leases == 1
