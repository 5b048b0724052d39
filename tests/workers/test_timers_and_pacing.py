"""Durable timers fire once across workers; send slots are shared by every worker."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store.pg.pacing import BotSchedule, SendSlots, Workers
from bot.store.pg.timers import TimerQueue


async def test_arming_twice_is_one_timer_and_it_fires_once(pg_pool: asyncpg.Pool) -> None:
    a, b = TimerQueue(pg_pool, "a"), TimerQueue(pg_pool, "b")
    await a.arm("reveal:1:0", 100.0, "x")
    await b.arm("reveal:1:0", 100.0, "x")
    assert await a.claim_due(now=99.0) == []
    claims = await asyncio.gather(a.claim_due(now=100.0), b.claim_due(now=100.0))
    assert sorted(len(c) for c in claims) == [0, 1]
    [timer] = claims[0] or claims[1]
    assert (timer.key, timer.payload) == ("reveal:1:0", "x")
    holder = a if claims[0] else b
    await holder.fired(timer)
    assert await a.armed() == {}
    assert await b.claim_due(now=1e12) == []


async def test_a_timer_held_by_a_dead_worker_fires_elsewhere(pg_pool: asyncpg.Pool) -> None:
    dead, alive = TimerQueue(pg_pool, "dead", lease=0.3), TimerQueue(pg_pool, "alive")
    await dead.arm("next:1", 5.0)
    [held] = await dead.claim_due(now=10.0)
    assert await alive.claim_due(now=10.0) == []
    while not (again := await alive.claim_due(now=10.0)):
        await asyncio.sleep(0.05)
    assert (again[0].key, again[0].tries) == ("next:1", 2)
    await alive.fired(again[0])
    await dead.fired(held)  # the dead worker's late word changes nothing
    assert await alive.armed() == {}


async def test_a_timer_moved_while_it_fires_survives_the_old_firing(
    pg_pool: asyncpg.Pool,
) -> None:
    q = TimerQueue(pg_pool, "w")
    await q.arm("schedule:3", 10.0)
    [old] = await q.claim_due(now=10.0)
    await q.arm("schedule:3", 86_410.0)  # the callback re-armed it for tomorrow
    await q.fired(old)
    assert await q.armed() == {"schedule:3": 86_410.0}
    assert await q.next_due() == 86_410.0


async def test_cancelling_by_prefix(pg_pool: asyncpg.Pool) -> None:
    q = TimerQueue(pg_pool, "w")
    for key in ("run:1:reveal", "run:1:next", "run:12:reveal"):
        await q.arm(key, 1.0)
    assert await q.cancel_prefix("run:1:") == 2
    assert await q.armed() == {"run:12:reveal": 1.0}
    assert await q.cancel("run:12:reveal")
    assert not await q.cancel("run:12:reveal")


async def test_send_slots_are_booked_in_turn_across_workers(pg_pool: asyncpg.Pool) -> None:
    # An interval of 100 s makes the booked waits far larger than any delay of the test itself.
    one, two = SendSlots(pg_pool), SendSlots(pg_pool)
    waits = [await s.reserve("chat:-5", interval=100.0) for s in (one, two, one)]
    assert waits[0] == 0.0
    assert waits[1] == pytest.approx(100.0, abs=5)
    assert waits[2] == pytest.approx(200.0, abs=5)
    assert await two.reserve("chat:-6", interval=100.0) == 0.0  # another chat: its own slots


async def test_send_slots_allow_a_burst_then_pace(pg_pool: asyncpg.Pool) -> None:
    slots = SendSlots(pg_pool)
    waits = [await slots.reserve("chat:-7", interval=100.0, burst=3) for _ in range(5)]
    assert waits[:3] == [0.0, 0.0, 0.0]
    assert waits[3] == pytest.approx(100.0, abs=5)
    assert waits[4] == pytest.approx(200.0, abs=5)


async def test_a_spare_slot_is_booked_only_when_free_and_never_queued(
    pg_pool: asyncpg.Pool,
) -> None:
    """A courtesy reply in a group (issue 25) takes the group's shared slot only if it is free
    now, on any worker; else nothing is booked, so the run's next send is not pushed back."""
    one, two = SendSlots(pg_pool), SendSlots(pg_pool)
    assert await one.spare("chat:-8", interval=100.0)  # a quiet group: booked
    assert not await two.spare("chat:-8", interval=100.0)  # its slot is taken: refused
    # Nothing was booked by the refusal: the run's next send waits one slot, not two.
    assert await two.reserve("chat:-8", interval=100.0) == pytest.approx(100.0, abs=5)
    assert not await one.spare("chat:-8", interval=100.0)
    assert await one.reserve("chat:-9", interval=100.0) == 0.0  # a run's send, then
    assert not await two.spare("chat:-9", interval=100.0)  # no courtesy reply behind it


async def test_live_workers_are_counted(pg_pool: asyncpg.Pool) -> None:
    a, b = Workers(pg_pool, "a"), Workers(pg_pool, "b")
    assert await a.count() == 1  # itself, even before its first beat
    await a.beat()
    await b.beat()
    assert await a.count() == 2
    await b.leave()
    assert await a.count() == 1


async def test_arming_if_absent_keeps_an_armed_timer(pg_pool: asyncpg.Pool) -> None:
    q = TimerQueue(pg_pool, "w")
    assert await q.arm_if_absent("run:1", 50.0, "a")
    assert not await q.arm_if_absent("run:1", 10.0, "b")
    assert await q.armed() == {"run:1": 50.0}


async def test_the_bots_schedule_is_one_for_every_worker(pg_dsn: str) -> None:
    """Two workers (two pools, as on two hosts) lease from one schedule: disjoint slots,
    `interval` apart, whoever asks; a 429 pause pushes the schedule back for both."""
    pools = [await asyncpg.create_pool(pg_dsn, min_size=1, max_size=2) for _ in range(2)]
    try:
        a, b = (BotSchedule(pool) for pool in pools)
        first = await a.lease(2, 10.0)  # an idle bot: the first slot is now
        assert first[0] == 0.0 and 9.0 < first[1] <= 10.0
        [third] = await b.lease(1, 10.0)  # the other host's next slot comes after a's two
        assert 19.0 < third <= 20.0
        await a.pause(100.0)
        [after] = await b.lease(1, 10.0)
        assert 99.0 < after <= 100.0
    finally:
        for pool in pools:
            await pool.close()
