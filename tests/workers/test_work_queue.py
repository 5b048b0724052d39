"""The durable inbox: stored once, claimed once, in order per key, never lost to a dead worker."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Sequence

import asyncpg

from bot.store.pg.inbox import MAX_TRIES, Claimed, Placed, UpdateQueue


async def _until_claimed(queue: UpdateQueue, limit: int = 10) -> list[int]:
    """Claim until something comes (a lease running out): the test's timeout bounds the wait."""
    while True:
        got = await queue.claim(limit)
        if got:
            return [c.update_id for c in got]
        await asyncio.sleep(0.05)


async def test_an_update_delivered_twice_is_stored_once(pg_pool: asyncpg.Pool) -> None:
    q = UpdateQueue(pg_pool, "w1")
    assert await q.put(1, "c1", '{"update_id": 1}')
    assert not await q.put(1, "c1", '{"update_id": 1}')
    assert await q.pending() == 1
    [claimed] = await q.claim(10)
    assert (claimed.update_id, claimed.payload, claimed.tries) == (1, '{"update_id": 1}', 1)
    await q.done([1])
    # Done, and still remembered: a late redelivery is dropped at the door.
    assert not await q.put(1, "c1", '{"update_id": 1}')
    assert await q.pending() == 0


async def test_concurrent_deliveries_are_stored_by_one_statement_each_once(
    pg_pool: asyncpg.Pool, pg_dsn: str
) -> None:
    """The webhook front's burst (issue 32): requests arriving while a statement is in flight
    go together in the next one, one NOTIFY for it; each learns whether its update was new,
    and only once its row is committed (a reader on another connection sees it)."""
    woken: list[str] = []
    listener = await asyncpg.connect(pg_dsn)
    await listener.add_listener("quizbot_work", lambda *args: woken.append(args[3]))
    q = UpdateQueue(pg_pool, "front")
    try:
        assert await q.put(1, "c1", '{"update_id": 1}')  # alone: a statement of its own
        ids = [2, 3, 1, 4, 2, *range(5, 40)]  # 1 is old, 2 arrives twice in the burst

        async def deliver(uid: int) -> bool:
            new = await q.put(uid, f"c{uid}", f'{{"update_id": {uid}}}')
            stored = await pg_pool.fetchval(
                "SELECT count(*) FROM work_updates WHERE update_id = $1", uid
            )
            assert stored == 1  # committed before the caller hears back
            return new

        news = await asyncio.gather(*(deliver(uid) for uid in ids))
        assert news == [True, True, False, True, False, *[True] * 35]
        assert q.statements <= 3  # 1 alone, then the burst in one or two
        assert await q.pending() == 39
        await asyncio.sleep(0.2)
        assert 1 <= len(woken) <= q.statements
    finally:
        await listener.close()


async def test_one_update_per_key_in_flight_oldest_first(pg_pool: asyncpg.Pool) -> None:
    a, b = UpdateQueue(pg_pool, "a"), UpdateQueue(pg_pool, "b")
    for uid, key in [(1, "c1"), (2, "c1"), (3, "c2"), (4, "c1"), (5, "c3")]:
        await a.put(uid, key, "{}")
    assert [c.update_id for c in await a.claim(10)] == [1, 3, 5]
    assert await b.claim(10) == []  # 2 and 4 wait behind 1, which a holds
    await a.done([1])
    assert [c.update_id for c in await b.claim(10)] == [2]
    assert await a.claim(10) == []
    await b.done([2])
    assert [c.update_id for c in await a.claim(10)] == [4]


class _Local:
    """The front's own worker, as the inbox sees it (inbox.LocalWorker)."""

    def __init__(self, room: int) -> None:
        self.free, self.taken, self.woken = room, [], 0

    def room(self) -> int:
        return self.free

    def take(self, updates: list[Claimed]) -> None:
        self.taken += [(u.update_id, u.payload, u.tries) for u in updates]
        self.free -= len(updates)

    def wake(self, updates: int, keys: Sequence[str] = ()) -> None:
        self.woken += updates

    def closing(self) -> list[int]:
        return []

    def closed(self, update_ids: list[int]) -> None:
        pass


async def test_the_fronts_own_worker_takes_what_it_stored_in_the_same_statement(
    pg_pool: asyncpg.Pool,
) -> None:
    """No claim round trip for what a worker's own front stored (issue 32), and still one
    update per key in flight, oldest first: what waits behind an older undone update of its
    key is stored unleased, for whichever worker claims it once that one is done."""
    local = _Local(room=3)
    front = UpdateQueue(pg_pool, "a", local=local)
    other = UpdateQueue(pg_pool, "b")
    await front.put(1, "c1", '{"update_id": 1}')
    await asyncio.gather(*(front.put(uid, key, "{}") for uid, key in [(2, "c1"), (3, "c2")]))
    assert local.taken == [(1, '{"update_id": 1}', 1), (3, "{}", 1)]
    assert local.woken == 1  # 2 waits behind 1
    assert await other.claim(10) == []  # 1 and 3 are a's, 2 waits behind 1
    assert await front.renew() == 2  # a holds them as if claimed
    await front.done([1])
    assert [c.update_id for c in await other.claim(10)] == [2]
    # No room left: stored for any worker, none leased.
    local.free = 0
    await front.put(4, "c4", "{}")
    assert len(local.taken) == 2
    assert [c.update_id for c in await other.claim(10)] == [4]


async def test_a_put_says_whether_this_processs_worker_took_the_update(
    pg_pool: asyncpg.Pool,
) -> None:
    """The webhook front waits for a tap's popup only when its own worker took the tap
    (bot/webhook_replies.py): a copy, or an update left for any worker, is answered at once."""
    local = _Local(room=1)
    front = UpdateQueue(pg_pool, "a", local=local)
    assert await front.place(1, "c1", "{}") is Placed.HERE
    assert await front.place(1, "c1", "{}") is Placed.COPY  # Telegram's retry
    assert await front.place(2, "c1", "{}") is Placed.STORED  # waits behind 1
    local.free = 0
    assert await front.place(3, "c3", "{}") is Placed.STORED  # no room: for any worker


async def test_two_updates_of_one_key_in_one_batch_are_not_both_taken(
    pg_pool: asyncpg.Pool,
) -> None:
    local = _Local(room=8)
    front = UpdateQueue(pg_pool, "a", local=local)
    await front.put(1, "other", "{}")  # the next two arrive while this is in flight
    await asyncio.gather(*(front.put(uid, "c1", "{}") for uid in (3, 2)))
    assert [t[0] for t in local.taken] == [1, 2]
    assert await UpdateQueue(pg_pool, "b").claim(10) == []  # 3 waits behind 2


async def test_a_dead_workers_update_is_taken_again_when_its_lease_ends(
    pg_pool: asyncpg.Pool,
) -> None:
    dead = UpdateQueue(pg_pool, "dead", lease=0.3)
    alive = UpdateQueue(pg_pool, "alive", lease=30)
    await dead.put(1, "c1", "{}")
    await dead.put(2, "c1", "{}")
    assert [c.update_id for c in await dead.claim(10)] == [1]
    # `dead` never renews nor finishes: once its lease is over, `alive` gets the same update.
    assert await _until_claimed(alive) == [1]
    await dead.done([1])  # too late: it no longer holds it, so this closes nothing
    assert await alive.claim(10) == []
    await alive.done([1])
    assert await _until_claimed(alive) == [2]


async def test_renewing_keeps_the_claim(pg_pool: asyncpg.Pool) -> None:
    busy = UpdateQueue(pg_pool, "busy", lease=0.5)
    other = UpdateQueue(pg_pool, "other")
    await busy.put(1, "c1", "{}")
    await busy.claim(10)
    for _ in range(6):  # three leases long, renewed all along
        assert await busy.renew() == 1
        assert await other.claim(10) == []
        await asyncio.sleep(0.25)
        await busy.renew()


async def test_a_stopping_worker_hands_its_claims_back(pg_pool: asyncpg.Pool) -> None:
    leaving, staying = UpdateQueue(pg_pool, "leaving", lease=3600), UpdateQueue(pg_pool, "s")
    await leaving.put(1, "c1", "{}")
    await leaving.claim(10)
    await leaving.hand_back([1])
    [again] = await staying.claim(10)
    assert (again.update_id, again.tries) == (1, 1)  # a hand-back is not a failed try


async def test_an_update_that_keeps_killing_workers_is_given_up(pg_pool: asyncpg.Pool) -> None:
    q = UpdateQueue(pg_pool, "w", lease=0.01)
    await q.put(1, "c1", "{}")
    await q.put(2, "c1", "{}")
    seen = []
    while (got := await q.claim(1)) == [] or got[0].update_id == 1:
        seen += [c.tries for c in got]
        await asyncio.sleep(0.02)
    assert seen == list(range(1, MAX_TRIES + 1))  # then given up, and the chat moves on
    assert got[0].update_id == 2


async def test_many_workers_process_each_update_once_and_each_key_in_order(
    pg_pool: asyncpg.Pool,
) -> None:
    keys = [f"c{k}" for k in range(12)]
    rng = random.Random(5)
    sent: dict[str, list[int]] = defaultdict(list)
    producer = UpdateQueue(pg_pool, "front")
    for uid in range(1, 301):
        key = rng.choice(keys)
        sent[key].append(uid)
        await producer.put(uid, key, "{}")
    handled: dict[str, list[int]] = defaultdict(list)
    busy: set[str] = set()
    overlaps = []

    async def worker(name: str) -> None:
        q = UpdateQueue(pg_pool, name)
        idle = 0
        while idle < 5:
            got = await q.claim(4)
            idle = 0 if got else idle + 1
            for c in got:
                if c.chat_key in busy:
                    overlaps.append(c.update_id)
                busy.add(c.chat_key)
            await asyncio.sleep(0)  # let the others claim meanwhile
            for c in got:
                handled[c.chat_key].append(c.update_id)
                busy.discard(c.chat_key)
            await q.done([c.update_id for c in got])
            await asyncio.sleep(0.001)

    await asyncio.gather(*(worker(f"w{i}") for i in range(4)))
    assert overlaps == []
    assert dict(handled) == dict(sent)  # each once, in order within its key
