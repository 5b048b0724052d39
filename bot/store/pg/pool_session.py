"""A pooled connection's life: what it learns once when opened, and what needs undoing when it
goes back to the pool (nothing the store leaves)."""

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


# The array types the hot statements bind (the inbox's put and claim, the answers' batch).
_ARRAY_TYPES = "SELECT $1::bigint[], $2::int[], $3::text[], $4::float8[]"


async def know_array_types(conn: Any) -> None:
    """The pool's `init`, once per new connection: asyncpg learns the codecs of the array types
    here, with the connection, instead of with the first statement that binds one mid-burst
    (it asks the server: three round trips, `WITH RECURSIVE typeinfo_tree` between two
    `set_config('jit', ...)`, seen in pg_stat_statements; issue 32). Nothing is executed."""
    await conn.prepare(_ARRAY_TYPES)
