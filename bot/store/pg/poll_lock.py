"""Who long-polls Telegram among the workers: a PostgreSQL session advisory lock.

Telegram answers getUpdates to one caller at a time, so one worker polls (bot/workers/poller.py).
The lock is held on a connection of its own, outside the pool: when the holder's process or its
connection dies, the server frees the lock itself, with no lease to tune, and the next worker to
ask takes it. The connection is named after the worker (`application_name`), so
`pg_stat_activity` joined with `pg_locks` says which worker polls.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from bot.store.pg.pacing import live_workers

POLL_LOCK = 7_265_001  # the advisory lock's key: whoever holds it polls


class PollLock:
    def __init__(self, dsn: str, name: str) -> None:
        self.dsn, self.name = dsn, name
        self._conn: asyncpg.Connection[Any] | None = None

    async def take(self) -> bool:
        """Whether this worker holds the lock now (connecting first if it has no connection);
        raises the driver's errors when the database cannot be reached."""
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(
                self.dsn, server_settings={"application_name": f"quizbot poller {self.name}"}
            )
        return bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", POLL_LOCK))

    @property
    def held(self) -> bool:
        """False once the lock's connection is gone (the server has freed the lock)."""
        return self._conn is not None and not self._conn.is_closed()

    async def live_workers(self) -> int:
        """Workers that renewed their row lately, this one included (at least 1)."""
        if self._conn is None:
            return 1
        return max(1, await live_workers(self._conn))

    async def release(self) -> None:
        """Close the connection, which frees the lock (cut short if the server is gone)."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            await asyncio.wait_for(conn.close(), 5)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            conn.terminate()
