"""What a pooled connection needs undone when it goes back to the pool: nothing the store leaves."""

from __future__ import annotations

from typing import Any


async def keep_session(conn: Any) -> None:
    """The pool's reset on release: nothing to send. asyncpg's default sends
    `SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL` on every release, a
    round trip per pooled statement (about 9 per update, half of a worker's trips: BENCHMARKS.md,
    issue 32). The store leaves no session state to undo: no SET, no session advisory lock (the
    migration's is transaction-scoped), no cursor left open; the one pooled LISTEN is the
    consumer's own connection, which UNLISTENs (`remove_listener`) before it is released (the
    row-change listener, store/pg/row_listener.py, holds a connection outside the pool).
    asyncpg still rolls back a transaction left open and drops listener callbacks before
    calling this."""
