"""The SQLite file: opening it safely, migrating it, and the single writer every write goes through.

aiosqlite gives each connection one thread and one transaction, so two coroutines writing on a
shared connection would share a transaction. All writes therefore go through `Database.write`,
served by one writer task that commits queued writes together (group commit): one fsync for a
burst of answers, and each write still awaits its own commit before the caller replies.

Every `await` on an aiosqlite connection is a trip to its thread and back through the event loop,
and under load each trip waits for a whole turn of the loop (every ready handler runs first). A
write of the async kind (`Database.write`) costs at least three such trips in a batch (savepoint,
statement, release): the writer, which is serial, then runs at the loop's pace, not SQLite's. The
hot writes (an answer) are therefore plain functions (`Database.write_sync`) run on the writer's
thread; a batch made of them only (begin, every write in its savepoint, commit) is ONE trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Generator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

log = logging.getLogger(__name__)
T = TypeVar("T")
WriteFn = Callable[[aiosqlite.Connection], Awaitable[Any]]
SyncWriteFn = Callable[[sqlite3.Connection], Any]
# (write, its future, True when it is a SyncWriteFn run on the writer's thread)
Item = tuple[WriteFn | SyncWriteFn, "asyncio.Future[Any]", bool]

MAX_BATCH = 256


class Rows:
    """The rows of one finished query, read like an aiosqlite cursor."""

    def __init__(self, rows: list[aiosqlite.Row]) -> None:
        self._rows = rows
        self._next = 0

    async def fetchone(self) -> aiosqlite.Row | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[aiosqlite.Row]:
        rest, self._next = self._rows[self._next :], len(self._rows)
        return rest

    def __aiter__(self) -> Rows:
        return self

    async def __anext__(self) -> aiosqlite.Row:
        row = await self.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row

    async def __aenter__(self) -> Rows:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Query:
    def __init__(self, conn: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> None:
        self._conn, self._sql, self._params = conn, sql, params

    async def _run(self) -> Rows:
        return Rows(list(await self._conn.execute_fetchall(self._sql, self._params)))

    def __await__(self) -> Generator[Any, None, Rows]:
        return self._run().__await__()

    async def __aenter__(self) -> Rows:
        return await self._run()

    async def __aexit__(self, *exc: object) -> None:
        return None


class Reader:
    """The read connection, answering each query whole in one trip to its thread.

    A statement left open across an `await` (a cursor read row by row while other coroutines
    query) keeps its read snapshot, so a read that follows a committed write could miss it.
    Fetching every row in one call closes the statement before anyone else runs: each query
    sees the latest commit.
    """

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Query:
        return _Query(self.conn, sql, params)

    async def backup(self, target: aiosqlite.Connection) -> None:
        await self.conn.backup(target)


class StoreError(RuntimeError):
    """The database cannot be used (corrupt, unwritable, newer than this code)."""


def migrations() -> list[tuple[int, str, str]]:
    """(number, name, sql) of every migration shipped in the package, in order."""
    found = []
    for item in resources.files("bot.store").joinpath("migrations").iterdir():
        if item.name.endswith(".sql"):
            number = int(item.name.split("_", 1)[0])
            found.append((number, item.name, item.read_text(encoding="utf-8")))
    return sorted(found)


class Database:
    """A reader connection for queries and a writer task for every change."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._reader: aiosqlite.Connection | None = None
        self._writer_conn: aiosqlite.Connection | None = None
        self._queue: asyncio.Queue[Item | None] = asyncio.Queue()
        self._writer_task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        try:
            await self._open()
        except (sqlite3.DatabaseError, OSError) as exc:
            await self.close()
            raise StoreError(f"cannot use database {self.path}: {exc}") from exc

    async def _open(self) -> None:
        if str(self.path) != ":memory:":
            # Check the file with plain sqlite3 first: a failed aiosqlite connect leaves its
            # worker thread behind, and a clear error is what an operator needs here.
            await asyncio.to_thread(self._preflight)
        self._writer_conn = await self._connect()
        await self._writer_conn.execute("PRAGMA journal_mode=WAL")
        await self._migrate(self._writer_conn)
        self._reader = await self._connect()
        self._writer_task = asyncio.create_task(self._writer_loop(), name="sqlite-writer")

    def _preflight(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            # Answers are personal data: the file is readable by the bot's user only.
            fd = os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        if not self.path.is_file():
            raise OSError(f"{self.path} is not a file")
        if not os.access(self.path, os.R_OK | os.W_OK):
            raise OSError(f"{self.path} is not readable and writable by this user")
        conn = sqlite3.connect(self.path)
        try:
            row = conn.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else '?'}")
        finally:
            conn.close()

    async def _connect(self) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        for pragma in ("synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
            await conn.execute(f"PRAGMA {pragma}")
        return conn

    @staticmethod
    async def _migrate(conn: aiosqlite.Connection) -> None:
        async with conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = int(row[0]) if row else 0
        shipped = migrations()
        latest = shipped[-1][0] if shipped else 0
        if current > latest:
            raise sqlite3.DatabaseError(
                f"database schema version {current} is newer than this quizbot ({latest})"
            )
        for number, name, sql in shipped:
            if number <= current:
                continue
            log.info("applying migration %s", name)
            await conn.executescript(
                f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;"
            )

    @property
    def reader(self) -> Reader:
        if self._reader is None:
            raise StoreError("database is not open")
        return Reader(self._reader)

    async def write(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run `fn` inside a committed transaction and return its result once it is durable."""
        if self._writer_task is None or self._writer_task.done():
            raise StoreError("database is not open")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, future, False))
        return await future

    async def write_sync(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """As `write`, for a plain function run on the writer's thread with its sqlite3
        connection: no trip through the event loop per statement (see the module's note)."""
        if self._writer_task is None or self._writer_task.done():
            raise StoreError("database is not open")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, future, True))
        return await future

    async def _writer_loop(self) -> None:
        conn = self._writer_conn
        assert conn is not None
        while True:
            item = await self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < MAX_BATCH and not self._queue.empty():
                nxt = self._queue.get_nowait()
                if nxt is None:
                    self._queue.put_nowait(None)  # stop after this batch
                    break
                batch.append(nxt)
            await self._run_batch(conn, batch)

    @staticmethod
    async def _run_batch(conn: aiosqlite.Connection, batch: list[Item]) -> None:
        results: list[tuple[asyncio.Future[Any], bool, Any]] = []
        if all(is_sync for _, _, is_sync in batch):
            await Database._run_on_thread(conn, batch)
            return
        if len(batch) == 1:
            # A lone write needs no savepoint: its own transaction is the unit that fails.
            fn, future, _ = batch[0]
            await Database._run_one(conn, cast(WriteFn, fn), future)
            return
        try:
            await conn.execute("BEGIN IMMEDIATE")
            for fn, future, is_sync in batch:
                # A savepoint per write: one failing write must not undo its neighbours.
                await conn.execute("SAVEPOINT w")
                try:
                    if is_sync:
                        value = await conn._execute(fn, conn._conn)  # type: ignore[no-untyped-call]
                    else:
                        value = await cast(WriteFn, fn)(conn)
                except Exception as exc:
                    await conn.execute("ROLLBACK TO w")
                    await conn.execute("RELEASE w")
                    results.append((future, False, exc))
                else:
                    await conn.execute("RELEASE w")
                    results.append((future, True, value))
            await conn.execute("COMMIT")
        except Exception as exc:
            with contextlib.suppress(Exception):
                await conn.execute("ROLLBACK")
            log.error("write batch of %d failed: %s", len(batch), exc)
            for _, future, _ in batch:
                if not future.done():
                    future.set_exception(StoreError(f"write failed: {exc}"))
            return
        for future, ok, value in results:
            if future.done():
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    @staticmethod
    async def _run_on_thread(conn: aiosqlite.Connection, batch: list[Item]) -> None:
        """A batch of `write_sync` writes: one trip to the writer's thread for all of it."""

        def run(raw: sqlite3.Connection) -> list[tuple[bool, Any]]:
            outcomes: list[tuple[bool, Any]] = []
            raw.execute("BEGIN IMMEDIATE")
            try:
                for fn, _, _ in batch:
                    # A savepoint per write: one failing write must not undo its neighbours.
                    raw.execute("SAVEPOINT w")
                    try:
                        value = cast(SyncWriteFn, fn)(raw)
                    except Exception as exc:
                        raw.execute("ROLLBACK TO w")
                        raw.execute("RELEASE w")
                        outcomes.append((False, exc))
                    else:
                        raw.execute("RELEASE w")
                        outcomes.append((True, value))
                raw.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(Exception):
                    raw.execute("ROLLBACK")
                raise
            return outcomes

        try:
            # aiosqlite runs `run` on the connection's own thread, the only one that may use it
            # (`_execute`/`_conn`: aiosqlite's own way to queue a call, private but stable).
            outcomes = await conn._execute(run, conn._conn)  # type: ignore[no-untyped-call]
        except Exception as exc:
            log.error("write batch of %d failed: %s", len(batch), exc)
            for _, future, _ in batch:
                if not future.done():
                    future.set_exception(StoreError(f"write failed: {exc}"))
            return
        for (_, future, _), (ok, value) in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    @staticmethod
    async def _run_one(
        conn: aiosqlite.Connection, fn: WriteFn, future: asyncio.Future[Any]
    ) -> None:
        try:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                value = await fn(conn)
            except Exception as exc:
                await conn.execute("ROLLBACK")
                if not future.done():
                    future.set_exception(exc)
                return
            await conn.execute("COMMIT")
        except Exception as exc:
            with contextlib.suppress(Exception):
                await conn.execute("ROLLBACK")
            log.error("write failed: %s", exc)
            if not future.done():
                future.set_exception(StoreError(f"write failed: {exc}"))
            return
        if not future.done():
            future.set_result(value)

    async def close(self) -> None:
        if self._writer_task is not None:
            self._queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await self._writer_task
            self._writer_task = None
        for conn in (self._reader, self._writer_conn):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._reader = self._writer_conn = None

    async def backup(self, target: Path) -> None:
        """Copy the live database with SQLite's online backup API (safe under WAL)."""
        dest = await aiosqlite.connect(target)
        try:
            await self.reader.backup(dest)
        finally:
            await dest.close()
