"""The store on PostgreSQL, behind the interface of the SQLite `Database` (bot/store/db.py).

The query modules (learners, groups, reviews, …) hand `write` a function of a connection and
read through `reader.execute`; here that connection is `PgConn`, which speaks the subset of
aiosqlite they use (`execute` awaited or as a context, `fetchone`, `fetchall`, `rowcount`, async
iteration, rows by name or position) over asyncpg, with the SQL translated by `dialect`.

What differs from SQLite, and why it is still the same store:

* SQLite has one writer, so a write function sees no one else's changes until it commits.
  PostgreSQL runs writes side by side (that is what several workers are for), so each write
  function runs in a SERIALIZABLE transaction: the database then guarantees the outcome of some
  one-at-a-time order, and a write that lost a race is run again from the start (it is a plain
  function of its connection; it has no effects outside the transaction).
* A constraint violation arrives as the store's own `IntegrityError` (bot/store/errors.py),
  which store modules catch (a second active run in a group, …). SQLite undoes only the failing
  statement; PostgreSQL aborts the whole transaction. So a write function that catches the
  violation and returns has its transaction rolled back, and the update being handled is
  recorded in one of its own (SQLite records it in the write's). That is the same outcome only
  when the violation came before any change: a change before it, or a statement after it, is
  refused loudly (PgStoreError) rather than lost quietly.
* Reads run on a pool, each statement on its own, and see every committed write.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg

from bot.observability import metrics
from bot.store.answer_batch import AnswerRow
from bot.store.db import HANDLED_UPDATES_MAX_AGE, StoreError, current_update
from bot.store.errors import IntegrityError
from bot.store.pg import schema
from bot.store.pg.answer_writer import AnswerWriter
from bot.store.pg.dialect import to_postgres
from bot.store.pg.pool_session import keep_session, know_array_types
from bot.store.pg.row_listener import RowListener
from bot.store.row_changes import CHANNEL, RowChanges, payload

log = logging.getLogger(__name__)
T = TypeVar("T")
RETRIES = 10  # serialization failures in a row before a write gives up
_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)
_READ = re.compile(r"^\s*(SELECT|VALUES)\b", re.IGNORECASE)
_NOTIFY = "SELECT pg_notify($1, $2)"  # a NOTIFY with parameters (changes no row)


class PgStoreError(StoreError):
    """A StoreError of the PostgreSQL store: callers that handle the store's failures (an
    answer that could not be saved, a database that cannot be opened) handle it as well."""


class Cursor:
    """The rows of one finished statement, read like an aiosqlite cursor."""

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows, self._next, self.rowcount = rows, 0, rowcount

    async def fetchone(self) -> asyncpg.Record | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[asyncpg.Record]:
        rest, self._next = self._rows[self._next :], len(self._rows)
        return rest

    def __aiter__(self) -> Cursor:
        return self

    async def __anext__(self) -> asyncpg.Record:
        row = await self.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row

    async def __aenter__(self) -> Cursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


async def _run(conn: Any, sql: str, params: Sequence[Any]) -> Cursor:
    query = to_postgres(sql)
    try:
        if _ROWS.search(query):
            rows = await conn.fetch(query, *params)
            return Cursor(rows, len(rows))
        status: str = await conn.execute(query, *params)
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise IntegrityError(str(exc)) from exc
    last = status.rsplit(" ", 1)[-1]
    return Cursor([], int(last) if last.isdigit() else -1)


class _Statement:
    """`await conn.execute(...)` and `async with conn.execute(...) as cur` both work."""

    def __init__(
        self,
        run: Callable[[str, Sequence[Any]], Awaitable[Cursor]],
        sql: str,
        params: Sequence[Any],
    ) -> None:
        self._run, self._sql, self._params = run, sql, params

    def __await__(self) -> Generator[Any, None, Cursor]:
        return self._run(self._sql, self._params).__await__()

    async def __aenter__(self) -> Cursor:
        return await self._run(self._sql, self._params)

    async def __aexit__(self, *exc: object) -> None:
        return None


class PgConn:
    """A connection inside one write transaction, read and written like aiosqlite's.

    It remembers a constraint violation (the transaction is aborted from there on) and whether
    anything had changed before it: see the module's docstring."""

    def __init__(self, conn: Any, announced: list[str]) -> None:
        self._conn = conn
        self._announced = announced  # heard by this process once the write is over
        self._changed = False
        self.violated = False  # a statement broke a constraint: the transaction is aborted
        self.changed_before = False  # and something had been changed before it

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Statement:
        return _Statement(self._statement, sql, params)

    async def _statement(self, sql: str, params: Sequence[Any]) -> Cursor:
        return await self._guarded(lambda: _run(self._conn, sql, params), sql)

    async def _guarded(self, statement: Callable[[], Awaitable[T]], sql: str) -> T:
        if self.violated:
            raise PgStoreError(f"a statement after a constraint violation in one write: {sql}")
        try:
            result = await statement()
        except IntegrityError:
            self.violated, self.changed_before = True, self._changed
            raise
        self._changed = self._changed or not _READ.match(sql)
        return result

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(p) for p in params]
        await self._guarded(lambda: _many(self._conn, sql, rows), sql)

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await (await self._statement(sql, params)).fetchall()

    async def announce(self, table: str, key: int, /) -> None:
        """NOTIFY in this transaction: every listening worker hears it at commit, never if it
        rolls back (bot/store/pg/row_listener.py); this one hears it once the write is over."""
        text = payload(table, key)
        await self._guarded(lambda: self._conn.execute(_NOTIFY, CHANNEL, text), _NOTIFY)
        self._announced.append(text)


async def _many(conn: Any, sql: str, params: list[tuple[Any, ...]]) -> None:
    try:
        await conn.executemany(to_postgres(sql), params)
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise IntegrityError(str(exc)) from exc


class PgReader:
    """Reads: each statement on a pooled connection, answered whole."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Statement:
        return _Statement(functools.partial(_run, self._pool), sql, params)


class PgDatabase:
    """A pool of connections: reads on any, each write function in its own transaction."""

    def __init__(
        self, dsn: str, *, pool_size: int = 10, keep_warm: bool = False, listen: bool = False
    ) -> None:
        """`keep_warm` (a long-running bot or worker): every pooled connection is opened at
        once and none is closed for being idle. A connection opened mid-burst costs a server
        process forked, asyncpg's introspection of the array types the inbox and the answers
        use (3 round trips) and every statement prepared again (issue 32); asyncpg closes an
        idle one after 5 minutes by default. A one-shot command opens one as it needs it."""
        self.dsn, self.pool_size, self.keep_warm = dsn, pool_size, keep_warm
        self._pool: asyncpg.Pool | None = None
        self.answers = AnswerWriter(dsn)  # answers group-committed on their own connection
        # `listen` (several workers): hear the others' changes of cached rows on a connection
        # of its own (LISTEN), else only this process's own
        self.changes = RowChanges(across_processes=listen)
        self._listener = RowListener(dsn, self.changes) if listen else None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise PgStoreError("database is not open")
        return self._pool

    async def open(self) -> None:
        """Connect and migrate; a second call does nothing (a worker opens it before the bot)."""
        if self._pool is not None:
            return
        try:
            self._pool = await asyncpg.create_pool(
                self.dsn,
                min_size=self.pool_size if self.keep_warm else 1,
                max_size=self.pool_size,
                max_inactive_connection_lifetime=0 if self.keep_warm else 300,
                command_timeout=60,
                reset=keep_session,
                init=know_array_types,
            )
            async with self._pool.acquire() as conn:
                await schema.migrate(conn)
            await self.answers.open()
            if self._listener is not None:
                await self._listener.start()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, schema.SchemaError) as exc:
            await self.close()
            raise PgStoreError(f"cannot use database {_redact(self.dsn)}: {exc}") from exc

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        with contextlib.suppress(Exception):
            await self.answers.close()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pool.close(), 10)

    @property
    def reader(self) -> PgReader:
        return PgReader(self.pool)

    async def write_answer(self, row: AnswerRow) -> bool:
        """An answer, once committed: group-committed with the answers other tasks of this
        worker submit meanwhile, one statement per burst (bot/store/pg/answer_writer.py)."""
        if self._pool is None:
            raise PgStoreError("database is not open")
        try:
            stored = await self.answers.write(row, current_update.get())
        except PgStoreError:
            raise
        except Exception as exc:  # as on SQLite: a failed answer is a StoreError, alone
            raise PgStoreError(f"write failed: {exc}") from exc
        metrics.answers_stored(int(stored))  # committed: a retried transaction counts once
        return stored

    def forget_cached(self, user_id: int) -> None:
        """Nothing of a user is cached here (see `Database.forget_cached`)."""

    async def write(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """Run `fn` in a committed SERIALIZABLE transaction, again if it lost a race.

        As on SQLite, a write made while handling an update records the update's key in the
        same transaction (bot/store/handled_updates.py), so a re-delivered update is known."""
        update_id = current_update.get()
        announced: list[str] = []
        try:
            for attempt in range(RETRIES):
                try:
                    async with self.pool.acquire() as conn:
                        return await _write_once(conn, fn, update_id, announced)
                except (asyncpg.SerializationError, asyncpg.DeadlockDetectedError):
                    await asyncio.sleep(0.002 * (attempt + 1))
            raise PgStoreError(f"write lost {RETRIES} races in a row")
        finally:  # committed (or not): this process's caches drop what it changed
            for text in announced:
                self.changes.heard(text)


class _Violated(Exception):
    """Ends a transaction that a caught constraint violation aborted (it rolls back)."""


async def _write_once(
    conn: Any, fn: Callable[[Any], Awaitable[T]], update_id: int | None, announced: list[str]
) -> T:
    """One try of a write: its transaction, and the handled update recorded with it; or, when
    `fn` caught a constraint violation (the transaction is aborted), the update on its own."""
    pg = PgConn(conn, announced)
    try:
        async with conn.transaction(isolation="serializable"):
            value = await fn(pg)
            if pg.violated:
                raise _Violated
            if update_id is not None:
                await _record_update(conn, update_id)
            return value
    except _Violated:
        pass
    if pg.changed_before:
        raise PgStoreError("a write changed rows before a constraint violation it caught")
    if update_id is not None:
        async with conn.transaction():
            await _record_update(conn, update_id)
    return value


async def _record_update(conn: Any, update_id: int) -> None:
    """The handled update's key, and now and then the pruning of old keys (as in db.py)."""
    now = time.time()
    await conn.execute(
        "INSERT INTO handled_updates (update_id, handled_at) VALUES ($1, $2) "
        "ON CONFLICT DO NOTHING",
        update_id,
        now,
    )
    if update_id % 1000 == 0:
        await conn.execute(
            "DELETE FROM handled_updates WHERE handled_at < $1", now - HANDLED_UPDATES_MAX_AGE
        )


def _redact(dsn: str) -> str:
    """The DSN without its password, for messages."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", dsn)
