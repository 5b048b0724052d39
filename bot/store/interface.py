"""What the store modules, the use cases and the adapter need of a database engine.

Two engines serve the same store modules (learners, groups, reviews, …): SQLite
(`bot.store.db.Database`) and PostgreSQL (`bot.store.pg.database.PgDatabase`). Neither inherits
from the other; each satisfies these Protocols structurally, and mypy holds that (the
assignments under TYPE_CHECKING at the end), so either can be passed wherever an `Engine` is
expected without `# type: ignore`.

Where a feature's SQL goes: a store module (e.g. `LearnerStore`), written once for both engines
(PostgreSQL's dialect is translated in bot/store/pg/dialect.py), with a migration in each of
bot/store/migrations and bot/store/migrations_pg. Only a new capability of the ENGINE itself (a
new kind of write, like `write_answer`) is added here, and then to both engines: mypy fails
until both have it.

Two slices, so a dependency stays as narrow as its use: `Reading` for read-only stores (the
dashboard's queries, analytics), `Engine` for everything that also writes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from bot.store.answer_batch import AnswerRow
from bot.store.conn import Conn, Reads, Rows, Statement
from bot.store.row_changes import RowChanges

__all__ = ["Conn", "Engine", "Reading", "Reads", "Rows", "Statement"]

T = TypeVar("T")


class Reading(Protocol):
    """An engine as a read-only store sees it."""

    @property
    def reader(self) -> Reads: ...


class Engine(Reading, Protocol):
    """An open (or openable) database: reads, writes that are durable when they return, and
    answers (the hot write, batched or not as the engine sees fit)."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def write(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run `fn` (a function of a connection, with no effect outside it) in one committed
        transaction and return its result once it is durable."""
        ...

    async def write_answer(self, row: AnswerRow) -> bool:
        """Store one answer once durable; False if it changed nothing (a duplicate, …)."""
        ...

    def forget_cached(self, user_id: int) -> None:
        """After forgetting a user: nothing of theirs may be written back from memory."""
        ...

    @property
    def changes(self) -> RowChanges:
        """What this process hears of changes to the rows its caches keep: its own writes', and
        with `PgDatabase(listen=True)` every worker's (store/row_changes.py)."""
        ...


if TYPE_CHECKING:  # both engines satisfy the interface: mypy fails here if one falls behind
    from pathlib import Path

    from bot.store.db import Database
    from bot.store.pg.database import PgDatabase

    _sqlite: Engine = Database(Path())
    _postgresql: Engine = PgDatabase("")
