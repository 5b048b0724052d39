"""Long polling for workers: one worker at a time asks Telegram for updates and stores them.

Workers without a public HTTPS address (behind NAT, on a laptop, in a private network) cannot
take a webhook. Telegram serves getUpdates to one caller at a time (a second ends the first with
409 Conflict), so the workers elect one poller: the one holding a PostgreSQL session advisory
lock, on a connection of its own. The others try again every `retry` seconds; when the poller's
process or connection dies, the server frees the lock and the next worker takes over.

An update is confirmed to Telegram (by the next getUpdates' offset) only once it is committed in
the inbox, so a poller that dies in between loses nothing: Telegram sends it again and the
inbox's primary key drops the copy. A whole getUpdates answer is stored by one statement
(`UpdateQueue.put`s submitted together are one group commit), in which the poller's own worker
takes its share (1/N of the batch with N workers alive, as far as it has free slots:
bot/store/pg/inbox.py), the rest waking the other workers. Measured against the webhook front:
BENCHMARKS.md, issue 32.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import orjson
from telegram.error import Conflict, InvalidToken, TelegramError

from bot.ordering import json_ordering_key
from bot.store.pg.inbox import UpdateQueue
from bot.webhook_gate import NotAnUpdate

log = logging.getLogger(__name__)

POLL_LOCK = 7_265_001  # the advisory lock's key: whoever holds it polls
LONG_POLL = 25  # seconds Telegram holds a getUpdates open when there is nothing to send
SHARE_EVERY = 10.0  # seconds between two counts of the live workers
LIVE_WITHIN = 30.0  # a worker that renewed its row this recently is alive (pacing.Workers)

Fetch = Callable[[int, int], Awaitable[list[dict[str, Any]]]]  # (offset, timeout) -> updates


class Poller:
    """`fetch(offset, timeout)`: Telegram's getUpdates, decoded. `check(update)`: PTB's reading
    of one (NotAnUpdate if it cannot read it), `keep(raw, read)` hands that reading to this
    process's worker (as the webhook front does). `prepare()` runs once each time this worker
    becomes the poller (it deletes a webhook, which would make getUpdates fail)."""

    def __init__(
        self,
        name: str,
        dsn: str,
        queue: UpdateQueue,
        fetch: Fetch,
        *,
        check: Callable[[dict[str, Any]], object],
        keep: Callable[[str, object], None] = lambda raw, read: None,
        prepare: Callable[[], Awaitable[object]] | None = None,
        retry: float = 2.0,
        timeout: int = LONG_POLL,
    ) -> None:
        self.name, self.dsn, self.queue, self.fetch = name, dsn, queue, fetch
        self.check, self.keep, self.prepare = check, keep, prepare
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

    async def _run(self) -> None:
        while True:
            try:
                # Named: `pg_stat_activity` joined with `pg_locks` says which worker polls.
                conn = await asyncpg.connect(
                    self.dsn, server_settings={"application_name": f"quizbot poller {self.name}"}
                )
            except (OSError, asyncpg.PostgresError) as exc:
                log.warning("poller: database unreachable (%s); trying again", exc)
                await asyncio.sleep(self.retry)
                continue
            try:
                while not await conn.fetchval("SELECT pg_try_advisory_lock($1)", POLL_LOCK):
                    await asyncio.sleep(self.retry)  # another worker polls
                log.info("poller: this worker polls Telegram for updates")
                self.polling = True
                await self._poll(conn)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("poller: lost the database (%s); another worker may poll", exc)
                await asyncio.sleep(self.retry)
            except Exception:  # a bug: said once with its traceback, and polling goes on
                log.exception("poller: stopped polling; starting again")
                await asyncio.sleep(self.retry)
            finally:
                self.polling = False
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.close(), 5)

    async def _poll(self, lock: asyncpg.Connection[Any]) -> None:
        """Poll while the lock's connection lives (a dead one frees the lock for another)."""
        if self.prepare is not None:
            await self.prepare()
        offset = 0
        while not lock.is_closed():
            try:
                updates = await self.fetch(offset, self.timeout)
            except (Conflict, InvalidToken) as exc:
                log.error("poller: Telegram refused getUpdates: %s", exc)
                await asyncio.sleep(max(self.retry, 5.0))
                continue
            except TelegramError as exc:  # network errors and timeouts included
                log.warning("poller: getUpdates failed (%s); trying again", exc)
                await asyncio.sleep(self.retry)
                continue
            ids = [u["update_id"] for u in updates if isinstance(u.get("update_id"), int)]
            if len(ids) < len(updates):
                log.warning("poller: %d updates without an id ignored", len(updates) - len(ids))
            if ids:
                await self._share(lock)
                await self._store(updates)  # raises if not stored: nothing is confirmed
                offset = max(ids) + 1

    async def _share(self, conn: asyncpg.Connection[Any]) -> None:
        """Every update reaches the poller, so its own worker takes 1/N of each batch (N: the
        live workers, read every `SHARE_EVERY` seconds) and wakes the others for the rest:
        taking all it has slots for would leave the other workers idle while its one core
        is the bottleneck."""
        now = time.monotonic()
        if now < self._share_at:
            return
        self._share_at = now + SHARE_EVERY
        live = await conn.fetchval(
            """SELECT count(*) FROM work_workers
               WHERE seen_at > clock_timestamp() - make_interval(secs => $1)""",
            LIVE_WITHIN,
        )
        self.queue.local_share = 1 / max(1, int(live))

    async def _store(self, updates: list[dict[str, Any]]) -> None:
        puts = []
        for update in updates:
            update_id = update.get("update_id")
            if not isinstance(update_id, int):
                continue
            try:
                read = self.check(update)  # changes `update` as PTB reads it (fewer bytes)
            except NotAnUpdate as exc:  # confirmed and not stored: it would fail every time
                log.warning("poller: update %d dropped: %s", update_id, exc)
                continue
            raw = orjson.dumps(update).decode()
            self.keep(raw, read)  # before the put, which may hand it to this worker at once
            puts.append(self.queue.put(update_id, json_ordering_key(update), raw))
        news = await asyncio.gather(*puts)  # one statement: submitted together
        self.stored += sum(news)
