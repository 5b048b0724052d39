"""The connection a SQLite write function is given: aiosqlite's, with a constraint violation
raised as the store's own `IntegrityError` (bot/store/errors.py), as the PostgreSQL engine
raises it. Only the generic `Database.write` path goes through here; the hot answer batch
(answer_batch.py) drives aiosqlite directly."""

from __future__ import annotations

import sqlite3
from collections.abc import Generator, Iterable, Sequence
from typing import Any

import aiosqlite

from bot.store.errors import IntegrityError
from bot.store.row_changes import payload


class _Statement:
    """`await conn.execute(...)` and `async with conn.execute(...) as cur`, translated."""

    __slots__ = ("_result",)

    def __init__(self, result: Any) -> None:
        self._result = result

    def __await__(self) -> Generator[Any, None, aiosqlite.Cursor]:
        return self._run().__await__()

    async def _run(self) -> aiosqlite.Cursor:
        try:
            cursor: aiosqlite.Cursor = await self._result
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        return cursor

    async def __aenter__(self) -> aiosqlite.Cursor:
        try:
            cursor: aiosqlite.Cursor = await self._result.__aenter__()
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        return cursor

    async def __aexit__(self, *exc: object) -> None:
        await self._result.__aexit__(*exc)


class SqliteConn:
    __slots__ = ("_announced", "_conn")

    def __init__(self, conn: aiosqlite.Connection, announced: list[str]) -> None:
        self._conn = conn
        self._announced = announced  # heard by this process once the write is over

    async def announce(self, table: str, key: int, /) -> None:
        """One process: nobody else to tell; the `Database` hears it after the write."""
        self._announced.append(payload(table, key))

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> _Statement:
        return _Statement(self._conn.execute(sql, params))

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]], /) -> None:
        try:
            await self._conn.executemany(sql, params)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = (), /) -> Iterable[Any]:
        try:
            return await self._conn.execute_fetchall(sql, params)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
