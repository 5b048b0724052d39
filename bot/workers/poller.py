"""Long polling for workers: one worker at a time asks Telegram for updates and stores them.

Workers without a public HTTPS address (behind NAT, on a laptop, in a private network) cannot
take a webhook. Telegram answers getUpdates to one caller at a time (a second ends the first with
409 Conflict), so the workers elect one poller: the one holding a PostgreSQL advisory lock
(bot/store/pg/poll_lock.py). The others ask again every `retry` seconds; when the poller's
process or connection dies, the server frees the lock and the next worker takes over.

An update is confirmed to Telegram (by the next getUpdates' offset) only once it is committed in
the inbox, so a poller that dies in between loses nothing: Telegram sends it again and the
inbox's primary key drops the copy. A whole getUpdates answer is stored by one statement
(`UpdateQueue.put`s submitted together are one group commit), in which the poller's own worker
takes its share (1/N of the batch with N workers alive, as far as it has free slots:
bot/store/pg/inbox.py), the rest waking the other workers. Measured against the webhook front:
BENCHMARKS.md, issue 32.

getUpdates failing (the network, Telegram's 5xx, a 409 while another bot instance polls, a 401)
is said in one line and tried again from the same offset after a pause that doubles up to
`MAX_PAUSE` while it keeps failing, as PTB's own updater backs off. What the exception means is
the adapter's business (bot/tg): here it is only a failed fetch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from bot.store.pg.inbox import UpdateQueue
from bot.store.pg.poll_lock import PollLock
from bot.webhook_gate import NotAnUpdate

log = logging.getLogger(__name__)

LONG_POLL = 25  # seconds Telegram holds a getUpdates open when there is nothing to send
SHARE_EVERY = 10.0  # seconds between two counts of the live workers
MAX_PAUSE = 30.0  # the longest pause between two failed getUpdates

Fetch = Callable[[int, int], Awaitable[list[dict[str, Any]]]]  # (offset, timeout) -> updates
Put = Callable[[int, dict[str, Any]], Awaitable[bool]]  # (update id, update) -> newly stored
_DB_ERRORS = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)


class Poller:
    """`fetch(offset, timeout)`: Telegram's getUpdates, decoded. `put(update_id, update)`: the
    update read by PTB and put in the inbox, as the webhook front stores one (`Front.put`:
    NotAnUpdate if PTB cannot read it); `queue` is that inbox, whose local share this sets.
    `prepare()` runs once each time this worker becomes the poller (it deletes a webhook, which
    would make getUpdates fail)."""

    def __init__(
        self,
        lock: PollLock,
        queue: UpdateQueue,
        fetch: Fetch,
        *,
        put: Put,
        prepare: Callable[[], Awaitable[object]] | None = None,
        retry: float = 2.0,
        timeout: int = LONG_POLL,
    ) -> None:
        self.lock, self.queue, self.fetch = lock, queue, fetch
        self.put, self.prepare = put, prepare
        self.retry, self.timeout = retry, timeout
        self.polling = False  # this worker holds the lock and polls (tests, logs)
        self.stored = 0  # updates this poller stored (tests)
        self._task: asyncio.Task[None] | None = None
        self._share_at = 0.0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="poller")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.lock.release()

    async def _run(self) -> None:
        while True:
            try:
                while not await self.lock.take():
                    await asyncio.sleep(self.retry)  # another worker polls
                log.info("poller: this worker polls Telegram for updates")
                self.polling = True
                await self._poll()
            except _DB_ERRORS as exc:
                log.warning("poller: database unreachable (%s); another worker may poll", exc)
            except Exception:  # a bug: said once with its traceback, and polling goes on
                log.exception("poller: stopped polling; starting again")
            self.polling = False
            await self.lock.release()  # frees the lock for another worker, if still held
            await asyncio.sleep(self.retry)

    async def _poll(self) -> None:
        """Poll while the lock's connection lives (a dead one has freed the lock)."""
        if self.prepare is not None:
            try:
                await self.prepare()
            except Exception as exc:  # Telegram's or the network's, as a fetch's below
                # A webhook still set makes getUpdates fail, which is said and retried below.
                log.warning(
                    "poller: could not delete the webhook (%s: %s)", type(exc).__name__, exc
                )
        offset, pause = 0, self.retry
        while self.lock.held:
            try:
                updates = await self.fetch(offset, self.timeout)
            except Exception as exc:  # whatever the adapter raised: see the module's docstring
                log.warning("poller: getUpdates failed (%s: %s); trying again in %.0f s",
                            type(exc).__name__, exc, pause)  # fmt: skip
                await asyncio.sleep(pause)
                pause = min(MAX_PAUSE, pause * 2)
                continue
            pause = self.retry
            ids = [u["update_id"] for u in updates if isinstance(u.get("update_id"), int)]
            if len(ids) < len(updates):
                log.warning("poller: %d updates without an id ignored", len(updates) - len(ids))
            if ids:
                await self._share()
                await self._store(updates)  # raises if not stored: nothing is confirmed
                offset = max(ids) + 1

    async def _share(self) -> None:
        """Every update reaches the poller, so its own worker takes 1/N of each batch (N: the
        live workers, counted every `SHARE_EVERY` seconds) and wakes the others for the rest:
        taking all it has slots for would leave the other workers idle while its one core
        is the bottleneck."""
        now = time.monotonic()
        if now >= self._share_at:
            self._share_at = now + SHARE_EVERY
            self.queue.local_share = 1 / await self.lock.live_workers()

    async def _store(self, updates: list[dict[str, Any]]) -> None:
        puts = []
        for update in updates:
            update_id = update.get("update_id")
            if not isinstance(update_id, int):
                continue
            try:
                puts.append(self.put(update_id, update))
            except NotAnUpdate as exc:  # confirmed and not stored: it would fail every time
                log.warning("poller: update %d dropped: %s", update_id, exc)
        news = await asyncio.gather(*puts)  # one statement: submitted together
        self.stored += sum(news)
