"""What store modules are given to talk to a database, whatever the engine: `Reads` (a
statement answered whole) and `Conn` (the connection of one write transaction). Typed here, not
as aiosqlite's or asyncpg's classes, so a store module is written once for both engines."""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator, Iterable, Sequence
from typing import Any, Protocol


class Rows(Protocol):
    """The rows of one finished statement, read like an aiosqlite cursor (rows by name or
    position: `sqlite3.Row` on SQLite, `asyncpg.Record` on PostgreSQL)."""

    async def fetchone(self) -> Any: ...

    async def fetchall(self) -> Sequence[Any]: ...

    def __aiter__(self) -> AsyncIterator[Any]: ...


class Statement(Protocol):
    """A statement sent on `execute`: awaited (`rows = await ...`) or used as a context."""

    def __await__(self) -> Generator[Any, None, Rows]: ...

    async def __aenter__(self) -> Rows: ...

    async def __aexit__(self, *exc: object) -> None: ...


class Reads(Protocol):
    """Reads, each statement answered whole, seeing every committed write."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Statement: ...


class Written(Protocol):
    """A statement's rows inside a write, and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Any: ...

    async def fetchall(self) -> Iterable[Any]: ...

    def __aiter__(self) -> AsyncIterator[Any]: ...


class WriteStatement(Protocol):
    def __await__(self) -> Generator[Any, None, Written]: ...

    async def __aenter__(self) -> Written: ...

    async def __aexit__(self, *exc: object) -> None: ...


class Conn(Protocol):
    """The connection a write function is given (one transaction): statements, many rows at
    once, and a read answered whole. A broken constraint raises `store.errors.IntegrityError`
    on either engine."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> WriteStatement: ...

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]], /) -> Any: ...

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ..., /) -> Iterable[Any]: ...

    async def announce(self, table: str, key: int, /) -> None:
        """This transaction changes a row that processes keep in memory (store/row_changes.py):
        each drops its copy once the transaction is over (on PostgreSQL a NOTIFY, delivered to
        the other workers at commit)."""
        ...
