"""`RowListener`: a worker LISTENs for the other workers' changes of cached rows (issue 32).

Every write of a learner's `users` row or a group's `groups` row NOTIFYs `row_changes.CHANNEL`
in its transaction (`PgConn.announce`); PostgreSQL delivers it at commit to every listening
session, and this worker's caches drop the copy (`RowChanges.heard`).

The listener holds a connection of its own (`asyncpg.connect`, not the pool's: a pooled
connection would be UNLISTENed and handed to others, store/pg/pool_session.py), through asyncpg's
public `add_listener` and `add_termination_listener`. A notification sent while it is not
listening is lost for good, so from the moment the connection drops (PostgreSQL restarted, the
backend terminated, the network cut: the socket closes, or a ping every `ping` seconds goes
unanswered) the caches are `deaf`: they keep nothing and read every time, until a new
connection LISTENs again (`hearing`: tried after `retry` seconds, then twice as long after each
failed try, up to `MAX_RETRY`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import asyncpg

from bot.store.row_changes import CHANNEL, RowChanges

log = logging.getLogger(__name__)
APPLICATION = "quizbot-row-changes"  # its name in pg_stat_activity
MAX_RETRY = 30.0  # seconds between tries at most, while connecting keeps failing


class RowListener:
    def __init__(
        self, dsn: str, changes: RowChanges, *, retry: float = 1.0, ping: float = 10.0
    ) -> None:
        self.dsn, self.changes, self.retry, self.ping = dsn, changes, retry, ping
        self._task: asyncio.Task[None] | None = None
        self._first = asyncio.Event()
        self._heard_once = False

    async def start(self) -> None:
        """Listen from now on; returns once the first try is over (the caches work from the
        start when it succeeded, and bypass until a later try does when it did not)."""
        if self._task is None:
            self._first = asyncio.Event()
            self._task = asyncio.create_task(self._run(), name="quizbot-row-listener")
        await self._first.wait()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _notified(self, connection: Any, pid: int, channel: str, payload: object) -> None:
        self.changes.heard(str(payload))

    async def _run(self) -> None:
        wait = self.retry
        while True:
            try:
                await self._listen()
                log.warning("row-change listener's connection lost: caches bypassed")
            except Exception as exc:  # whatever ended it: deaf until a new connection listens
                log.warning("not listening for row changes (%s): caches bypassed", exc)
            self._first.set()
            wait = self.retry if self._heard_once else min(wait * 2, MAX_RETRY)
            self._heard_once = False
            await asyncio.sleep(wait)

    async def _listen(self) -> None:
        """One connection's life: LISTEN, hear, and return (or raise) once it is gone."""
        lost = asyncio.Event()
        conn = await asyncpg.connect(
            self.dsn, timeout=self.ping, server_settings={"application_name": APPLICATION}
        )
        try:
            conn.add_termination_listener(lambda _conn: lost.set())
            await conn.add_listener(CHANNEL, self._notified)
            self.changes.hearing()
            self._first.set()
            self._heard_once = True  # the next failure is retried soon again
            while not conn.is_closed():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), self.ping)
                    return
                await conn.execute("SELECT 1", timeout=self.ping)  # still there?
        finally:
            self.changes.deaf()  # before anything else can read and keep
            conn.terminate()
