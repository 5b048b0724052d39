"""Reads on the shared reader connection, each query answered whole in one trip.

A statement left open across an `await` (a cursor read row by row while other coroutines query)
keeps its read snapshot, so a read that follows a committed write could miss it.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

import aiosqlite


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
