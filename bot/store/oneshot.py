"""Read-only queries of the operator's one-shot commands (`quizbot export`, `quizbot content
export --group`), on either engine, streamed: an export can be larger than memory.

They run beside the live bot without disturbing it: SQLite is opened read-only (WAL lets a
reader in while the bot writes); PostgreSQL reads one snapshot (a read-only REPEATABLE READ
transaction) through a server-side cursor, a chunk at a time. The commands are synchronous, so
the PostgreSQL side runs on an event loop of its own in a thread of its own (a caller that is
itself inside a running loop, like a test, is fine). Errors come out as `StoreError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.db import StoreError
from bot.store.location import Location
from bot.store.pg.dialect import to_postgres

CHUNK = 1000


def as_location(where: Location | Path) -> Location:
    return where if isinstance(where, Location) else Location(path=where)


def read_rows(
    where: Location | Path, sql: str, params: Sequence[Any] = ()
) -> Iterator[tuple[Any, ...]]:
    """The rows of one query in the store's dialect, as tuples, read as they are consumed."""
    location = as_location(where)
    if location.dsn is not None:
        return _pg_rows(location, sql, params)
    return _sqlite_rows(location, sql, params)


def _sqlite_rows(location: Location, sql: str, params: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    try:
        conn = sqlite3.connect(f"file:{location.path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read {location}: {exc}") from None
    try:
        yield from conn.execute(sql, params)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read {location}: {exc}") from None
    finally:
        conn.close()


def _pg_rows(location: Location, sql: str, params: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    assert location.dsn is not None
    dsn, query = location.dsn, to_postgres(sql)
    with ThreadPoolExecutor(1, thread_name_prefix="quizbot-read") as thread:
        loop = thread.submit(asyncio.new_event_loop).result()

        def run(step: Any) -> Any:
            return thread.submit(loop.run_until_complete, step).result()

        conn: Any = None
        try:
            try:
                conn = run(asyncpg.connect(dsn))
                transaction = conn.transaction(isolation="repeatable_read", readonly=True)
                run(transaction.start())
                cursor = run(conn.cursor(query, *params))
                while chunk := run(cursor.fetch(CHUNK)):
                    yield from (tuple(row) for row in chunk)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                raise StoreError(f"cannot read {location}: {exc}") from None
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    run(conn.close())  # ends the read-only transaction with it
            thread.submit(loop.close).result()
