"""Worker loops on one database: order per key, timers once, nothing lost to SIGKILL."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import asyncpg

from bot.store.pg.inbox import Claimed, UpdateQueue
from bot.store.pg.timers import Timer, TimerQueue
from bot.workers.consumer import Consumer

ROOT = Path(__file__).resolve().parents[2]


async def _eventually(check, what: str) -> None:  # type: ignore[no-untyped-def]
    """Poll until `check()` is true; the test's timeout bounds the wait."""
    while not await check():
        await asyncio.sleep(0.05)


async def test_three_workers_keep_each_chats_order(pg_pool: asyncpg.Pool) -> None:
    log: dict[str, list[int]] = defaultdict(list)
    running: set[str] = set()
    overlaps: list[int] = []

    def handler(name: str):  # type: ignore[no-untyped-def]
        async def handle(payload: str) -> None:
            update = json.loads(payload)
            key = update["key"]
            if key in running:
                overlaps.append(update["update_id"])
            running.add(key)
            await asyncio.sleep(0.002)
            log[key].append(update["update_id"])
            running.discard(key)

        return handle

    front = UpdateQueue(pg_pool, "front")
    expected: dict[str, list[int]] = defaultdict(list)
    for uid in range(1, 121):
        key = f"c{uid % 7}"
        expected[key].append(uid)
        await front.put(uid, key, json.dumps({"update_id": uid, "key": key}))
    workers = [
        Consumer(pg_pool, f"w{i}", handler(f"w{i}"), clock=time.time, slots=4) for i in range(3)
    ]
    for w in workers:
        await w.start()
    try:
        await _eventually(lambda: _none_pending(front), "all handled")
    finally:
        for w in workers:
            await w.stop()
    assert overlaps == []
    assert dict(log) == dict(expected)


async def _none_pending(q: UpdateQueue) -> bool:
    return await q.pending() == 0


async def test_a_due_timer_fires_once_across_workers(pg_pool: asyncpg.Pool) -> None:
    fired: list[tuple[str, str]] = []

    def firer(name: str):  # type: ignore[no-untyped-def]
        async def fire(timer: Timer) -> None:
            fired.append((timer.key, name))

        return fire

    async def nothing(payload: str) -> None:
        return None

    now = time.time()
    timers = TimerQueue(pg_pool, "arming")
    for i in range(20):
        await timers.arm(f"reveal:{i}", now - 1 + i * 0.01)
    workers = [
        Consumer(pg_pool, f"w{i}", nothing, firer(f"w{i}"), clock=time.time) for i in range(3)
    ]
    for w in workers:
        await w.start()
    try:
        await _eventually(lambda: _no_timers(timers), "all fired")
    finally:
        for w in workers:
            await w.stop()
    assert sorted(key for key, _ in fired) == sorted(f"reveal:{i}" for i in range(20))


async def _no_timers(q: TimerQueue) -> bool:
    return await q.armed() == {}


async def test_a_graceful_stop_hands_unfinished_work_back(pg_pool: asyncpg.Pool) -> None:
    started = asyncio.Event()

    async def slow(payload: str) -> None:
        started.set()
        await asyncio.Event().wait()

    handled: list[int] = []

    async def quick(payload: str) -> None:
        handled.append(json.loads(payload)["update_id"])

    front = UpdateQueue(pg_pool, "front")
    await front.put(1, "c1", '{"update_id": 1}')
    leaving = Consumer(pg_pool, "leaving", slow, clock=time.time, lease=3600)
    await leaving.start()
    await started.wait()
    await leaving.stop(grace=0.05)
    # The lease was an hour: only the hand-back lets another worker take it now.
    staying = Consumer(pg_pool, "staying", quick, clock=time.time)
    await staying.start()
    try:
        await _eventually(lambda: _none_pending(front), "handed back and handled")
    finally:
        await staying.stop()
    assert handled == [1]


async def test_an_update_held_by_a_killed_worker_is_processed_by_another(
    pg_pool: asyncpg.Pool, pg_dsn: str
) -> None:
    await pg_pool.execute("CREATE TABLE seen (n BIGSERIAL, update_id BIGINT, worker TEXT)")
    front = UpdateQueue(pg_pool, "front")
    await front.put(1, "c1", json.dumps({"update_id": 1, "hang": True}))
    await front.put(2, "c1", json.dumps({"update_id": 2}))  # waits behind 1: same chat
    await front.put(3, "c2", json.dumps({"update_id": 3}))
    victim = subprocess.Popen(
        [sys.executable, "-m", "tests.workers.consumer_proc", pg_dsn, "victim", "1.0"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:

        async def victim_holds_1() -> bool:
            return bool(await pg_pool.fetchval("SELECT count(*) FROM seen WHERE update_id = 1"))

        await _eventually(victim_holds_1, "victim started update 1")
    finally:
        victim.send_signal(signal.SIGKILL)
        victim.wait()

    async def record(payload: str) -> None:
        update = json.loads(payload)
        await pg_pool.execute(
            "INSERT INTO seen (update_id, worker) VALUES ($1, 'rescuer')", update["update_id"]
        )

    rescuer = Consumer(pg_pool, "rescuer", record, clock=time.time, poll=0.1)
    await rescuer.start()
    try:
        await _eventually(lambda: _none_pending(front), "all handled")
    finally:
        await rescuer.stop()
    rows = await pg_pool.fetch("SELECT update_id, worker FROM seen ORDER BY update_id, worker")
    by_update: dict[int, list[str]] = defaultdict(list)
    for r in rows:
        by_update[r["update_id"]].append(r["worker"])
    assert by_update[1] == ["rescuer", "victim"]  # begun by the victim, done by the rescuer
    assert by_update[2] == ["rescuer"]  # it waited behind 1: the victim never had it
    # 3 (another chat) may have been handled by the victim and again by the rescuer, if the kill
    # came between its handling and its `done`: processed again, never lost.
    assert by_update[3] in (["rescuer"], ["victim"], ["rescuer", "victim"])
    rescued = await pg_pool.fetch(
        "SELECT update_id FROM seen WHERE worker = 'rescuer' AND update_id IN (1, 2) ORDER BY n"
    )
    order = [r["update_id"] for r in rescued]
    assert order == [1, 2]  # the chat's order held through the kill


async def test_a_running_worker_purges_updates_done_over_a_day_ago(pg_pool: asyncpg.Pool) -> None:
    """Done rows stop redeliveries for a day, then go: the inbox does not keep every payload."""
    front = UpdateQueue(pg_pool, "front")
    for uid in (1, 2, 3):
        await front.put(uid, f"c{uid}", json.dumps({"update_id": uid}))
    handled: list[int] = []

    async def handle(payload: str) -> None:
        handled.append(json.loads(payload)["update_id"])

    worker = Consumer(pg_pool, "w", handle, clock=time.time, lease=0.3, purge_every=0.1)
    await worker.start()
    try:
        await _eventually(lambda: _none_pending(front), "all handled")
        # Two were done long ago, one just now: only the old ones are forgotten.
        await pg_pool.execute(
            "UPDATE work_updates SET done_at = done_at - interval '25 hours' WHERE update_id < 3"
        )

        async def only_recent_left() -> bool:
            ids = await pg_pool.fetch("SELECT update_id FROM work_updates ORDER BY update_id")
            return [r["update_id"] for r in ids] == [3]

        await _eventually(only_recent_left, "old done updates purged")
    finally:
        await worker.stop()
    assert sorted(handled) == [1, 2, 3]
    # The recent one still guards against a redelivery of update 3.
    assert not await front.put(3, "c3", json.dumps({"update_id": 3}))


async def test_an_update_whose_done_failed_is_closed_later_and_its_chat_goes_on(
    pg_pool: asyncpg.Pool,
) -> None:
    """A `done` that fails once (a dropped connection, a failover) must not leave its update
    claimed and renewed for as long as the worker lives, holding its chat's next updates."""
    await pg_pool.execute("CREATE SEQUENCE done_tries")
    await pg_pool.execute(
        """CREATE FUNCTION fail_first_done() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN
               IF NEW.done_at IS NOT NULL AND OLD.done_at IS NULL
                  AND nextval('done_tries') = 1 THEN
                   RAISE EXCEPTION 'the database went away';
               END IF;
               RETURN NEW;
           END $$"""
    )
    await pg_pool.execute(
        "CREATE TRIGGER fail_first_done BEFORE UPDATE ON work_updates "
        "FOR EACH ROW EXECUTE FUNCTION fail_first_done()"
    )
    front = UpdateQueue(pg_pool, "front")
    await front.put(1, "c1", '{"update_id": 1}')
    await front.put(2, "c1", '{"update_id": 2}')  # waits behind 1: same chat
    handled: list[int] = []

    async def handle(payload: str) -> None:
        handled.append(json.loads(payload)["update_id"])

    worker = Consumer(pg_pool, "w", handle, clock=time.time, poll=0.1)
    await worker.start()
    try:
        await asyncio.wait_for(_eventually(lambda: _none_pending(front), "all closed"), 10)
    finally:
        await worker.stop()
    assert handled == [1, 2]


async def test_a_burst_is_closed_by_the_claims_that_take_the_next_updates(
    pg_pool: asyncpg.Pool,
) -> None:
    """Round trips per update (issue 32): what finished is closed by the statement that claims
    the next updates, not by a `done` of its own, and a claim takes several updates."""
    front = UpdateQueue(pg_pool, "front")
    for uid in range(1, 61):
        await front.put(uid, f"c{uid}", json.dumps({"update_id": uid}))
    handled: list[int] = []

    async def handle(payload: str) -> None:
        await asyncio.sleep(0.01)
        handled.append(json.loads(payload)["update_id"])

    worker = Consumer(pg_pool, "w", handle, clock=time.time, slots=8)
    await worker.start()
    try:
        await _eventually(lambda: _none_pending(front), "all handled")
        closes, claims = worker.updates.closes, worker.updates.claims
    finally:
        await worker.stop()
    assert sorted(handled) == list(range(1, 61))
    assert closes == 0  # no statement only to close
    assert claims <= 30  # two updates or more per claim


async def test_updates_stored_by_a_workers_own_front_do_not_wake_the_others(
    pg_pool: asyncpg.Pool,
) -> None:
    """With several workers, every NOTIFY woke every worker, and all but one claimed in vain
    (issue 32). A worker whose own front stored updates it has free slots for takes them
    itself: the others are not woken."""
    handled: list[tuple[str, int]] = []

    def handler(name: str):  # type: ignore[no-untyped-def]
        async def handle(payload: str) -> None:
            handled.append((name, json.loads(payload)["update_id"]))

        return handle

    a = Consumer(pg_pool, "a", handler("a"), clock=time.time, slots=4, poll=5)
    b = Consumer(pg_pool, "b", handler("b"), clock=time.time, slots=4, poll=5)
    await a.start()
    await b.start()
    front = UpdateQueue(pg_pool, "a", local=a)
    try:
        await asyncio.sleep(0.3)  # both started and idle
        b_claims = b.updates.claims
        for uid in (1, 2, 3):
            await front.put(uid, f"c{uid}", json.dumps({"update_id": uid}))
            await asyncio.wait_for(_eventually(lambda: _none_pending(front), "handled"), 4)
        assert sorted(handled) == [("a", 1), ("a", 2), ("a", 3)]
        assert b.updates.claims == b_claims  # b slept through it
        # A front whose worker has no room wakes the others as before.
        busy = UpdateQueue(pg_pool, "a", local=_NoRoom())
        await busy.put(4, "c4", json.dumps({"update_id": 4}))
        await asyncio.wait_for(_eventually(lambda: _none_pending(front), "handled"), 4)
        assert ("b", 4) in handled or ("a", 4) in handled
        assert b.updates.claims > b_claims
    finally:
        await a.stop()
        await b.stop()


class _NoRoom:
    def room(self) -> int:
        return 0

    def wake(self, updates: int, keys: Sequence[str] = ()) -> None:
        raise AssertionError("not woken: it has no room")

    def closing(self) -> list[int]:
        return []

    def closed(self, update_ids: list[int]) -> None:
        pass


class _Catch:
    """A front's own worker that only catches what the put hands it (inbox.LocalWorker)."""

    def __init__(self) -> None:
        self.taken: list[Claimed] = []

    def room(self) -> int:
        return 8

    def take(self, updates: list[Claimed]) -> None:
        self.taken += updates

    def wake(self, updates: int, keys: Sequence[str] = ()) -> None:
        pass

    def closing(self) -> list[int]:
        return []

    def closed(self, update_ids: list[int]) -> None:
        pass


async def test_what_the_front_hands_a_stopping_worker_goes_back_to_the_others(
    pg_pool: asyncpg.Pool,
) -> None:
    """A put in flight when the worker began to stop: the worker does not start on it, and the
    next free worker takes it at once, not when the lease runs out."""
    catch = _Catch()
    await UpdateQueue(pg_pool, "w", lease=3600, local=catch).put(1, "c1", '{"update_id": 1}')
    handled: list[str] = []

    async def handle(payload: str) -> None:
        handled.append(payload)

    worker = Consumer(pg_pool, "w", handle, clock=time.time, slots=8, lease=3600)
    await worker.start()
    await worker.stop()
    worker.take(catch.taken)
    other = UpdateQueue(pg_pool, "other")
    got: list[Claimed] = []

    async def handed_back() -> bool:
        got.extend(await other.claim(5))
        return bool(got)

    await _eventually(handed_back, "handed back")
    assert [c.update_id for c in got] == [1] and handled == []


async def _closed(pool: asyncpg.Pool, update_id: int) -> bool:
    return bool(
        await pool.fetchval(
            "SELECT done_at IS NOT NULL FROM work_updates WHERE update_id = $1", update_id
        )
    )


async def test_a_finished_update_is_closed_by_the_fronts_next_put(pg_pool: asyncpg.Pool) -> None:
    """Behind a webhook the worker's own front stores a burst's updates and the worker takes
    them within the put (issue 32): what it finished rides on the front's next put, with no
    statement of its own, claim or `done`."""
    handled: list[int] = []

    async def handle(payload: str) -> None:
        handled.append(json.loads(payload)["update_id"])

    worker = Consumer(pg_pool, "w", handle, clock=time.time, poll=3600, close_delay=3600)
    await worker.start()
    front = UpdateQueue(pg_pool, "w", local=worker)
    try:
        await asyncio.wait_for(_eventually(_claimed_once(worker), "the first claim"), 5)
        claims = worker.updates.claims
        await front.put(1, "c1", json.dumps({"update_id": 1}))
        await asyncio.wait_for(_eventually(_finished(worker, [1]), "1 finished"), 5)
        assert not await _closed(pg_pool, 1)  # waits for the next statement
        await front.put(2, "c2", json.dumps({"update_id": 2}))
        assert await _closed(pg_pool, 1)
        await asyncio.wait_for(_eventually(_finished(worker, [2]), "2 finished"), 5)
        assert (worker.updates.claims, worker.updates.closes) == (claims, 0)
    finally:
        await worker.stop()
    assert handled == [1, 2]
    assert await _closed(pg_pool, 2)  # closed on the way out


def _claimed_once(worker: Consumer):  # type: ignore[no-untyped-def]
    async def check() -> bool:
        return worker.updates.claims >= 1

    return check


def _finished(worker: Consumer, update_ids: list[int]):  # type: ignore[no-untyped-def]
    async def check() -> bool:
        return worker.closing() == update_ids

    return check


async def test_a_finished_update_no_put_follows_is_closed_within_the_delay(
    pg_pool: asyncpg.Pool,
) -> None:
    async def handle(payload: str) -> None:
        pass

    worker = Consumer(pg_pool, "w", handle, clock=time.time, poll=3600, close_delay=0.05)
    await worker.start()
    front = UpdateQueue(pg_pool, "w", local=worker)
    try:
        await front.put(1, "c1", json.dumps({"update_id": 1}))
        await asyncio.wait_for(_eventually(lambda: _none_pending(front), "closed"), 5)
    finally:
        await worker.stop()


async def test_an_update_stored_behind_one_whose_notify_was_lost_runs_when_a_put_closes_it(
    pg_pool: asyncpg.Pool,
) -> None:
    """Update 2 of chat c1 waits behind 1, and this worker never heard of it (its NOTIFY lost
    while the listener reconnected: here, a row written directly). When 1 finishes its close
    rides on this front's next put, which wakes the workers for 2 in the same statement."""
    release, handled, handle = _first_held()
    worker = Consumer(pg_pool, "w", handle, clock=time.time, poll=3600, close_delay=3600)
    await worker.start()
    front = UpdateQueue(pg_pool, "w", local=worker)
    try:
        await front.put(1, "c1", json.dumps({"update_id": 1}))
        await pg_pool.execute(
            """INSERT INTO work_updates (update_id, chat_key, payload, tries)
               VALUES (2, 'c1', '{"update_id": 2}', 0)"""
        )
        release.set()
        await asyncio.wait_for(_eventually(_finished(worker, [1]), "1 finished"), 5)
        await front.put(3, "c3", json.dumps({"update_id": 3}))  # closes 1
        await asyncio.wait_for(_eventually(lambda: _handled(handled, 3), "2 ran"), 5)
    finally:
        await worker.stop()
    assert handled[0] == 1 and sorted(handled) == [1, 2, 3]


async def test_a_chats_backlog_runs_on_without_waiting_for_a_put(pg_pool: asyncpg.Pool) -> None:
    """Three updates of one chat reach the front while the first is handled: the next two wait
    behind it. Each, once handled, hands its key on at once (a claim that closes it and takes
    the next), not after `close_delay`, though no put follows (issue 32: a group's typed answers
    are keyed by the group)."""
    release, handled, handle = _first_held()
    worker = Consumer(pg_pool, "w", handle, clock=time.time, poll=3600, close_delay=3600)
    await worker.start()
    front, other = UpdateQueue(pg_pool, "w", local=worker), UpdateQueue(pg_pool, "x")
    try:
        await front.put(1, "g1", json.dumps({"update_id": 1}))
        await front.put(2, "g1", json.dumps({"update_id": 2}))  # this front's, behind 1
        await other.put(3, "g1", json.dumps({"update_id": 3}))  # another front's, behind 2
        release.set()
        await asyncio.wait_for(_eventually(lambda: _handled(handled, 3), "all three"), 5)
    finally:
        await worker.stop()
    assert handled == [1, 2, 3]


async def _handled(handled: list[int], n: int) -> bool:
    return len(handled) >= n


def _first_held() -> tuple[asyncio.Event, list[int], Callable[[str], Awaitable[None]]]:
    """A handler that records each update's id, holding update 1 until the event is set."""
    release = asyncio.Event()
    handled: list[int] = []

    async def handle(payload: str) -> None:
        update_id = json.loads(payload)["update_id"]
        if update_id == 1:
            await release.wait()
        handled.append(update_id)

    return release, handled, handle
