"""One worker's loop: claim what is free, process it, mark it done, keep its leases alive.

It knows nothing of Telegram: `handle` gets an update's JSON, `fire` a due timer (bot/tg wires
both to PTB). Up to `slots` updates and timers run at once. The worker sleeps until a NOTIFY (a
new update or timer), a slot frees while updates may be waiting, or `poll` seconds (an expired
lease of a dead worker, a timer coming due). A heartbeat renews every lease each third of it, so
only a worker that stopped running loses its claims.

An update that finished is closed by the next statement this worker sends anyway, with every
other finished meanwhile (issue 32): its front's next `put` (bot/store/pg/inbox.py, `closing`),
or its next claim, which may also claim the next update of that chat. A finished update of a
key with an update known to wait behind it (a put's NOTIFY or this worker's front named the
key) is closed at once by a claim that takes that next update, so a chat's backlog runs on
without a pause; so is any update while the inbox may hold work for this worker (a NOTIFY, its
front's `wake`, a claim that came back full), as its slot is free. Otherwise the close waits for
the front's next put, at most `close_delay` seconds, and then a claim sends it: in a burst
behind a webhook, closing costs no statement of its own. A put that closes an update with one
waiting behind it (its NOTIFY lost, say) wakes the workers in the same statement. A close that
failed rides on the next statement. The same heartbeat forgets,
every `purge_every` seconds, updates done more than `keep_done` ago (a day: long enough to refuse
Telegram's redeliveries, short enough that the inbox does not keep every payload forever); any
worker may do it, the DELETE is idempotent.

Stopping (`stop`) claims nothing more, gives in-flight work `grace` seconds to finish, and hands
back what is left so the next free worker takes it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.pg.inbox import CHANNEL, Claimed, UpdateQueue
from bot.store.pg.pacing import Workers
from bot.store.pg.timers import Timer, TimerQueue

log = logging.getLogger(__name__)
MAX_CONTENDED = 10_000  # keys remembered as having an update waiting (then forgotten at once)


class Consumer:
    def __init__(
        self,
        pool: asyncpg.Pool,
        name: str,
        handle: Callable[[str], Awaitable[object]],
        fire: Callable[[Timer], Awaitable[object]] | None = None,
        *,
        clock: Callable[[], float],
        slots: int = 8,
        lease: float = 10.0,
        poll: float = 0.5,
        purge_every: float = 600.0,
        keep_done: float = 86_400.0,
        timer_check: float = 0.1,
        close_delay: float = 0.05,
    ) -> None:
        self.pool, self.name, self.handle, self.fire = pool, name, handle, fire
        self.clock, self.slots, self.poll = clock, slots, poll
        self.updates = UpdateQueue(pool, name, lease)
        self.timers = TimerQueue(pool, name, lease)
        self.workers = Workers(pool, name, stale=3 * lease)
        self._lease = lease
        self._purge_every, self._keep_done = purge_every, keep_done
        self._wake = asyncio.Event()
        # Timers are looked for when one was armed (NOTIFY 't'), a claim came back full, or
        # `timer_check` seconds passed: not on every wake, which a burst of updates makes a
        # round trip per update for timers that are due every few seconds at most.
        self.timer_check = timer_check
        self._timer_news = True
        self._timers_at = 0.0
        # Updates handled and not closed yet: the front's next put or the next claim closes
        # them, a claim at the latest `close_delay` seconds after the first finished.
        self._finished: dict[int, str] = {}  # update id -> its key, in finishing order
        self.close_delay = close_delay
        self._close_due = False
        self._close_timer: asyncio.TimerHandle | None = None
        # Whether the inbox may hold updates this worker could claim: a NOTIFY, its front's
        # `wake`, or a claim that came back full. A claim that takes what there is clears it.
        self._maybe_work = True
        self._claimed_at = -math.inf  # when the last claim was sent (monotonic)
        # Keys with an update known to wait behind an older one (the puts' NOTIFYs and the
        # front's `wake` name them): finishing an update of such a key claims at once, closing
        # it and taking the next, instead of waiting for a put. A key is dropped when a claim
        # that closed one of its updates took none of its next (and none was named meanwhile).
        self._contended: set[str] = set()
        self._named = 0  # how many times keys were named: a claim in flight may miss one
        self._promised = 0  # updates this process's front stored for this worker, unclaimed
        self._updates: dict[asyncio.Task[None], Claimed] = {}
        self._firing: dict[asyncio.Task[None], Timer] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._listener: PoolConnectionProxy[asyncpg.Record] | None = None
        self._stopping = False
        self._handing_back: asyncio.Task[None] | None = None
        self.running = False

    async def start(self) -> None:
        await self.workers.beat()
        listener = await self.pool.acquire()
        await listener.add_listener(CHANNEL, self._notified)
        self._listener = listener
        self.running = True
        self._tasks = [
            asyncio.create_task(self._loop(), name=f"{self.name}-claims"),
            asyncio.create_task(self._heartbeat(), name=f"{self.name}-heartbeat"),
        ]

    def _notified(self, connection: Any, pid: int, channel: str, payload: object) -> None:
        if payload == "t":
            self._timer_news = True
        else:
            self._maybe_work = True
            if payload:
                self._name_contended(str(payload).split(" "))
        self._wake.set()

    def _name_contended(self, keys: Iterable[str]) -> None:
        if len(self._contended) > MAX_CONTENDED:  # bounded: a forgotten key costs a delay only
            self._contended.clear()
        self._contended.update(keys)
        self._named += 1

    def _busy(self) -> int:
        return len(self._updates) + len(self._firing)

    def room(self) -> int:
        """Free slots not yet promised, for this process's front (inbox.LocalWorker): what it
        stores and this worker has room for wakes this worker only, not every worker."""
        if not self.running or self._stopping:
            return 0
        return self.slots - self._busy() - self._promised

    def take(self, updates: list[Claimed]) -> None:
        """The front stored `updates` already leased to this worker (committed): run them as
        if claimed, without a claim's round trip (inbox.LocalWorker)."""
        if self._stopping:  # stored while it stopped (the front closes first): the next takes it
            self._handing_back = asyncio.create_task(
                self._hand_back_quietly([u.update_id for u in updates])
            )
            return
        for update in updates:
            task = asyncio.create_task(self._process(update))
            self._updates[task] = update

    async def _hand_back_quietly(self, update_ids: list[int]) -> None:
        """Hand back, or leave them to their lease's end if the database is gone too."""
        with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            await self.updates.hand_back(update_ids)

    def wake(self, updates: int, keys: Sequence[str] = ()) -> None:
        """The front stored `updates` for this worker (committed), each waiting behind an
        older update of one of `keys`: claim them."""
        self._promised += updates
        self._maybe_work = True
        if keys:
            self._name_contended(keys)
        self._wake.set()

    def closing(self) -> list[int]:
        """What this worker finished and has not closed: the front's put closes it too."""
        return list(self._finished)

    def closed(self, update_ids: list[int]) -> None:
        """Closed by a statement that committed (a put's or a claim's)."""
        for update_id in update_ids:
            self._finished.pop(update_id, None)
        if not self._finished and self._close_timer is not None:
            self._close_timer.cancel()
            self._close_timer = None

    def _close_soon(self) -> None:
        """A finished update waits for the front's next put at most `close_delay` seconds."""
        if self._close_timer is None:
            self._close_timer = asyncio.get_running_loop().call_later(
                self.close_delay, self._close_now
            )

    def _close_now(self) -> None:
        self._close_timer = None
        self._close_due = True
        self._wake.set()

    async def _loop(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                more = await self._claim_some()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("worker %s: cannot claim work: %s", self.name, exc)
                more = False
            if more:
                continue  # the claim came back full: more may be waiting
            # Woken by a NOTIFY (new work, even one sent while the claim ran), a finished
            # update, a close due, or `poll` (a dead worker's lease ran out, a timer came due).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)

    async def _claim_some(self) -> bool:
        """Claim into the free slots, closing what finished; whether a claim came back full.

        Claims when updates may wait in the inbox (`_maybe_work`), when closes are due, and at
        least every `poll` seconds even in a burst (a dead worker's expired leases); due timers
        are looked for at most every `timer_check` seconds. Woken only because an update
        finished, with nothing known to wait, it leaves the close to the front's next put (at
        most `close_delay` seconds) and sends nothing."""
        now = time.monotonic()
        free = self.slots - self._busy()
        close = dict(self._finished)  # id -> key, as they stand now
        claim = self._maybe_work or self._close_due or now >= self._claimed_at + self.poll
        look_for_timers = (
            free > 0 and self.fire is not None and (self._timer_news or now >= self._timers_at)
        )
        if close and not claim:
            self._close_soon()
        if not (claim or look_for_timers):
            return False
        timers: list[Timer] = []
        if look_for_timers:
            self._timer_news = False
            self._timers_at = now + self.timer_check
            timers = await self.timers.claim_due(self.clock(), limit=free)
            if len(timers) == free:  # full: more may be due (a NOTIFY meanwhile also counts)
                self._timer_news = True
            for timer in timers:
                task = asyncio.create_task(self._fire(timer))
                self._firing[task] = timer
        timers_full = free > 0 and len(timers) == free
        limit = max(0, free - len(timers))
        if not claim or (limit <= 0 and not close):
            return timers_full
        self._close_due = False
        self._claimed_at = now
        self._promised = 0  # this claim sees what the front committed and promised
        if limit > 0:
            self._maybe_work = False  # a NOTIFY while the claim is in flight sets it again
        named = self._named
        claimed = await self.updates.claim(limit, list(close))
        self.closed(list(close))
        if named == self._named:  # no key named while the claim was in flight
            self._contended -= set(close.values()) - {u.chat_key for u in claimed}
        for update in claimed:
            task = asyncio.create_task(self._process(update))
            self._updates[task] = update
        full = limit > 0 and len(claimed) == limit
        if full:
            self._maybe_work = True
        return full or timers_full

    async def _process(self, update: Claimed) -> None:
        task = asyncio.current_task()
        try:
            try:
                await self.handle(update.payload)
            except Exception:
                # The handler's own error path (PTB's error handler) should have dealt with it:
                # an exception here is a bug, retried by nobody (it would fail the same way).
                log.exception("worker %s: update %d failed", self.name, update.update_id)
            self._finished[update.update_id] = update.chat_key  # the next put or claim closes it
            if update.chat_key in self._contended:  # an update waits behind it: hand it on now
                self._close_due = True
        finally:
            self._updates.pop(task, None)  # type: ignore[arg-type]
            self._wake.set()

    async def _fire(self, timer: Timer) -> None:
        task = asyncio.current_task()
        assert self.fire is not None
        try:
            await self.fire(timer)
        except Exception:
            log.exception("worker %s: timer %s failed", self.name, timer.key)
        try:
            await self.timers.fired(timer)
        finally:
            self._firing.pop(task, None)  # type: ignore[arg-type]
            self._wake.set()

    async def _heartbeat(self) -> None:
        next_purge = time.monotonic()
        while True:
            await asyncio.sleep(min(self._lease / 3, self._purge_every))
            try:
                await self.updates.renew()
                await self.timers.renew()
                await self.workers.beat()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("worker %s: cannot renew leases: %s", self.name, exc)
            if time.monotonic() >= next_purge:
                next_purge = time.monotonic() + self._purge_every
                try:
                    purged = await self.updates.purge(self._keep_done)
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                    log.warning("worker %s: cannot purge done updates: %s", self.name, exc)
                else:
                    if purged:
                        log.debug("worker %s: forgot %d done updates", self.name, purged)

    async def stop(self, grace: float = 10.0) -> None:
        """Finish what is in flight within `grace` seconds, hand the rest back, leave."""
        self._stopping = True
        self._wake.set()
        if self._tasks:
            await asyncio.wait([self._tasks[0]])
        inflight = list(self._updates) + list(self._firing)
        if inflight:
            await asyncio.wait(inflight, timeout=grace)
        left = dict(self._updates)
        left_timers = dict(self._firing)
        for task in (*left, *left_timers):
            task.cancel()
        await asyncio.gather(*left, *left_timers, return_exceptions=True)
        with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            if self._finished:  # handled since the last claim: closed before the rest goes back
                await self.updates.done(list(self._finished))
                self._finished.clear()
            if left:
                await self.updates.hand_back([u.update_id for u in left.values()])
            for timer in left_timers.values():
                await self.timers.hand_back(timer)
            await self.workers.leave()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.remove_listener(CHANNEL, self._notified)
            await self.pool.release(self._listener)
            self._listener = None
        self.running = False
