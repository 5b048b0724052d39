"""The SQLite file: opening it safely, migrating it, and the single writer every write goes through.

aiosqlite gives each connection one thread and one transaction, so two coroutines writing on a
shared connection would share a transaction. All writes therefore go through one writer task
that commits queued writes together (group commit): one commit for a burst of answers, and each
write still awaits its own commit before the caller replies.

Every `await` on an aiosqlite connection is a trip to its thread and back through the event loop,
and under load each trip waits for a whole turn of the loop. A write of the general kind
(`Database.write`) costs several trips (begin, savepoint, statements, release, commit); the hot
write, an answer (`Database.write_answer`), is data, and a batch of answers is ONE statement in
autocommit mode, one trip (see `answer_batch`). Only aiosqlite's public API is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.observability import metrics
from bot.store.answer_batch import (
    AnswerRow,
    NamesWritten,
    insert_answers,
    insert_each,
    store_names,
)
from bot.store.conn import Conn
from bot.store.reader import Reader
from bot.store.row_changes import RowChanges
from bot.store.sqlite_conn import SqliteConn

log = logging.getLogger(__name__)
T = TypeVar("T")
WriteFn = Callable[[Conn], Awaitable[Any]]
# The Telegram update the current task is handling (set by `updates.handling_update`): a write
# made for it records the id in its own transaction, so a re-delivered update is known as done.
current_update: ContextVar[int | None] = ContextVar("current_update", default=None)
HANDLED_UPDATES_MAX_AGE = 2 * 86_400.0  # seconds; Telegram keeps an unconfirmed update 24 h


@dataclass(frozen=True, slots=True)
class _Write:
    """A queued write: statements awaited on the loop, or an answer (stored in a batch)."""

    future: asyncio.Future[Any]
    on_loop: WriteFn | None = None
    answer: AnswerRow | None = field(default=None)
    update_id: int | None = None
    announced: list[str] = field(default_factory=list)  # cached rows it changes (row_changes)

    async def run(self, conn: aiosqlite.Connection, *, record: bool = True) -> Any:
        """The write's statements, then (`record`) its update's row; a batch records the
        updates of all its writes at once instead (`_record`)."""
        assert self.on_loop is not None
        value = await self.on_loop(SqliteConn(conn, self.announced))
        if record and self.update_id is not None:
            await _record(conn, [self.update_id])
        return value


async def _record(conn: aiosqlite.Connection, update_ids: list[int]) -> None:
    """The updates these writes were made for are handled (in their transaction)."""
    now = time.time()
    await conn.executemany(
        "INSERT OR IGNORE INTO handled_updates (update_id, handled_at) VALUES (?, ?)",
        [(update_id, now) for update_id in update_ids],
    )
    if any(update_id % 1000 == 0 for update_id in update_ids):  # now and then (keys are hashes)
        await conn.execute(
            "DELETE FROM handled_updates WHERE handled_at < ?",
            (now - HANDLED_UPDATES_MAX_AGE,),
        )


MAX_BATCH = 256


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
        self._queue: asyncio.Queue[_Write | None] = asyncio.Queue()
        self._writer_task: asyncio.Task[None] | None = None
        self.names_written = NamesWritten()
        # Group members' names from answers just stored, written when the writer is idle or
        # before any other write (a run's finish, whose leaderboard reads them): not per tap.
        self._pending_names: list[AnswerRow] = []
        self.changes = RowChanges()  # the only writer: it hears every change it makes

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

    async def write(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run `fn` inside a committed transaction and return its result once it is durable."""
        if self._writer_task is None or self._writer_task.done():
            raise StoreError("database is not open")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        write = _Write(future, on_loop=fn, update_id=current_update.get())
        self._queue.put_nowait(write)
        try:
            return await future
        finally:  # committed (or not): the caches drop what it changed
            for announced in write.announced:
                self.changes.heard(announced)

    def forget_cached(self, user_id: int) -> None:
        """After forgetting a user: no name of theirs may be written back from memory."""
        self.names_written.forget(user_id)
        self._pending_names = [row for row in self._pending_names if row.user_id != user_id]

    async def write_answer(self, row: AnswerRow) -> bool:
        """Store one answer once it is durable; False if it changed nothing (a duplicate, or
        its attempt or question closed meanwhile). Answers queued together share one trip."""
        if self._writer_task is None or self._writer_task.done():
            raise StoreError("database is not open")
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Write(future, answer=row))
        return await future

    async def _writer_loop(self) -> None:
        conn = self._writer_conn
        assert conn is not None
        while True:
            if self._pending_names and self._queue.empty():
                await self._store_names(conn)
            item = await self._queue.get()
            if item is None:
                await self._store_names(conn)
                return
            batch = [item]
            while len(batch) < MAX_BATCH and not self._queue.empty():
                nxt = self._queue.get_nowait()
                if nxt is None:
                    self._queue.put_nowait(None)  # stop after this batch
                    break
                batch.append(nxt)
            await self._run_batch(conn, batch)

    async def _run_batch(self, conn: aiosqlite.Connection, batch: list[_Write]) -> None:
        answers = [w for w in batch if w.answer is not None]
        if answers:
            await self._run_answers(conn, answers)
            batch = [w for w in batch if w.answer is None]
            if not batch:
                return
        await self._store_names(conn)
        if len(batch) == 1:
            # A lone write needs no savepoint: its own transaction is the unit that fails.
            await Database._run_one(conn, batch[0])
            return
        outcomes: list[tuple[bool, Any]] = []
        handled: list[int] = []
        try:
            await conn.execute("BEGIN IMMEDIATE")
            for write in batch:
                # A savepoint per write: one failing write must not undo its neighbours.
                await conn.execute("SAVEPOINT w")
                try:
                    value = await write.run(conn, record=False)
                except Exception as exc:
                    await conn.execute("ROLLBACK TO w")
                    await conn.execute("RELEASE w")
                    outcomes.append((False, exc))
                else:
                    await conn.execute("RELEASE w")
                    outcomes.append((True, value))
                    if write.update_id is not None:
                        handled.append(write.update_id)
            if handled:  # one trip for the batch's updates, not one per write (issue 32)
                await _record(conn, handled)
            await conn.execute("COMMIT")
        except Exception as exc:
            with contextlib.suppress(Exception):
                await conn.execute("ROLLBACK")
            _fail(batch, exc)
            return
        _settle(batch, outcomes)

    async def _run_answers(self, conn: aiosqlite.Connection, batch: list[_Write]) -> None:
        rows = [w.answer for w in batch if w.answer is not None]
        try:
            stored = await insert_answers(conn, rows)
        except Exception as exc:
            # One bad row fails the statement: store the rows one by one, so it fails alone.
            log.warning("answer batch of %d failed (%s); storing one by one", len(rows), exc)
            try:
                outcomes = await insert_each(conn, rows)
            except Exception as again:
                _fail(batch, again)
                return
            _settle(batch, [(ok, v if ok else _store_error(v)) for ok, v in outcomes])
            stored = [ok and v is True for ok, v in outcomes]
        else:
            _settle(batch, [(True, value) for value in stored])
        metrics.answers_stored(sum(stored))
        self._pending_names += [
            row for row, is_new in zip(rows, stored, strict=True) if is_new and row.name is not None
        ]

    async def _store_names(self, conn: aiosqlite.Connection) -> None:
        rows, self._pending_names = self._pending_names, []
        if not rows:
            return
        try:
            await store_names(conn, rows, self.names_written)
        except Exception as exc:  # the answers are stored; a name is only for display
            log.warning("names of %d members not stored: %s", len(rows), exc)

    @staticmethod
    async def _run_one(conn: aiosqlite.Connection, write: _Write) -> None:
        try:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                value = await write.run(conn)
            except Exception as exc:
                await conn.execute("ROLLBACK")
                _settle([write], [(False, exc)])
                return
            await conn.execute("COMMIT")
        except Exception as exc:
            with contextlib.suppress(Exception):
                await conn.execute("ROLLBACK")
            _fail([write], exc)
            return
        _settle([write], [(True, value)])

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


def _settle(batch: list[_Write], outcomes: list[tuple[bool, Any]]) -> None:
    for write, (ok, value) in zip(batch, outcomes, strict=True):
        if write.future.done():
            continue
        if ok:
            write.future.set_result(value)
        else:
            write.future.set_exception(value)


def _store_error(exc: BaseException) -> StoreError:
    error = StoreError(f"write failed: {exc}")
    error.__cause__ = exc
    return error


def _fail(batch: list[_Write], exc: BaseException) -> None:
    """The transaction itself failed (disk full, I/O error): every write in it failed."""
    log.error("write batch of %d failed: %s", len(batch), exc)
    for write in batch:
        if not write.future.done():
            write.future.set_exception(StoreError(f"write failed: {exc}"))
