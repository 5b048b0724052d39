"""Migrations on PostgreSQL: the store's twins of the SQLite migrations, and the work queue's own.

Why a parallel folder (`bot/store/migrations_pg/`) rather than one source with substitutions:
the SQLite migrations already shipped use SQLite-only forms that no textual substitution turns
into PostgreSQL safely (a trigger body, `INSERT OR IGNORE`, `WITHOUT ROWID`, rowid aliases).
The twins keep the same numbers and file names, and tests/workers/test_pg_schema.py migrates both
engines and compares what they built: tables, columns, types, primary keys, indexes (unique and
partial ones too) and triggers. A migration added to one folder without its twin fails that
test, with the file to write in its message.

The version of each part lives in `quizbot_schema` (SQLite keeps it in `user_version`); workers
that start together migrate once, serialised by a transaction-scoped advisory lock.
"""

from __future__ import annotations

import logging
from importlib import resources
from typing import TYPE_CHECKING, TypeAlias

import asyncpg

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Conn: TypeAlias = asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]

log = logging.getLogger(__name__)

STORE = "store"  # bot/store/migrations_pg: the twins of bot/store/migrations
WORK = "work"  # bot/store/pg/work_migrations: the work queue (PostgreSQL only)
_FOLDERS = {STORE: ("bot.store", "migrations_pg"), WORK: ("bot.store.pg", "work_migrations")}
_LOCK = 0x5155_495A  # "QUIZ": one migrating worker at a time


class SchemaError(RuntimeError):
    """The database's schema is newer than this quizbot, or a migration failed."""


def migrations(part: str) -> list[tuple[int, str, str]]:
    """(number, file name, sql) of one part's migrations, in order."""
    package, folder = _FOLDERS[part]
    found = []
    for item in resources.files(package).joinpath(folder).iterdir():
        if item.name.endswith(".sql"):
            found.append((int(item.name.split("_", 1)[0]), item.name, item.read_text("utf-8")))
    return sorted(found)


async def version(conn: Conn, part: str) -> int:
    exists = await conn.fetchval("SELECT to_regclass('quizbot_schema') IS NOT NULL")
    if not exists:
        return 0
    value = await conn.fetchval("SELECT version FROM quizbot_schema WHERE part = $1", part)
    return int(value or 0)


async def migrate(conn: Conn, parts: tuple[str, ...] = (STORE, WORK)) -> None:
    """Bring every part up to date; refuse a database newer than this code."""
    for part in parts:
        shipped = migrations(part)
        latest = shipped[-1][0] if shipped else 0
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK)
            await conn.execute(
                """CREATE TABLE IF NOT EXISTS quizbot_schema (
                       part TEXT PRIMARY KEY, version INTEGER NOT NULL)"""
            )
            current = await version(conn, part)
            if current > latest:
                raise SchemaError(
                    f"database schema ({part}) version {current} is newer than this quizbot "
                    f"({latest})"
                )
            for number, name, sql in shipped:
                if number <= current:
                    continue
                log.info("applying migration %s (%s)", name, part)
                await conn.execute(sql)
                await conn.execute(
                    """INSERT INTO quizbot_schema (part, version) VALUES ($1, $2)
                       ON CONFLICT (part) DO UPDATE SET version = excluded.version""",
                    part,
                    number,
                )
