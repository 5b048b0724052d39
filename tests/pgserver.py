"""A real PostgreSQL server for the session, a fresh database per test, and `db` on both engines.

The server is started from the machine's binaries (bot/store/pg/cluster.py: initdb + pg_ctl in
a temporary folder, as an unprivileged user when running as root) and stopped at the end. Where
PostgreSQL is not installed every test here is skipped with a message saying how to get it;
.ci/run installs it so that CI never skips them.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import Database
from bot.store.pg import schema
from bot.store.pg.cluster import Cluster, NoPostgres
from bot.store.pg.database import PgDatabase

TEMPLATE = "quizbot_template"
_names = itertools.count()


async def _build_template(cluster: Cluster) -> None:
    conn = await asyncpg.connect(cluster.dsn())
    try:
        await conn.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await conn.close()
    conn = await asyncpg.connect(cluster.dsn(TEMPLATE))
    try:
        await schema.migrate(conn)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    try:
        cluster = Cluster()
    except NoPostgres as exc:
        pytest.skip(str(exc))
    try:
        cluster.start()
        asyncio.run(_build_template(cluster))
    except Exception:
        log = cluster.log_tail()
        cluster.stop()
        raise RuntimeError(f"could not start a throwaway PostgreSQL:\n{log}") from None
    try:
        yield cluster
    finally:
        cluster.stop()


async def new_database(cluster: Cluster, *, migrated: bool = True) -> str:
    """A database of its own for one test (a copy of the migrated template, or empty)."""
    name = f"t{next(_names)}"
    conn = await asyncpg.connect(cluster.dsn())
    try:
        template = TEMPLATE if migrated else "template0"
        await conn.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
    finally:
        await conn.close()
    return cluster.dsn(name)


@pytest.fixture
async def pg_dsn(pg_cluster: Cluster) -> str:
    """The DSN of a fresh, migrated database."""
    return await new_database(pg_cluster)


@pytest.fixture
async def pg_pool(pg_dsn: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await asyncpg.create_pool(pg_dsn, min_size=1, max_size=8)
    try:
        yield pool
    finally:
        await pool.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest) -> Cluster | None:
    """Which engine a store test runs on: None for SQLite, the session's PostgreSQL server.

    A sync fixture so that the session's server (started with asyncio.run) is set up outside
    the test's event loop; without PostgreSQL binaries the postgresql variant is skipped.
    """
    if request.param == "sqlite":
        return None
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster


async def _rows(database: Any, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Rows of one read in the common dialect, as tuples, on either engine (for assertions)."""
    async with database.reader.execute(sql, params) as cur:
        return [tuple(row) for row in await cur.fetchall()]


@pytest.fixture(name="db")
async def db_on_both_engines(
    engine: Cluster | None, tmp_path: Path
) -> AsyncIterator[Database | PgDatabase]:
    """The store on a fresh SQLite file, then on a fresh PostgreSQL database (a template copy)."""
    database: Database | PgDatabase
    if engine is None:
        database = Database(tmp_path / "quizbot.sqlite3")
    else:
        database = PgDatabase(await new_database(engine))
    await database.open()
    database.rows = functools.partial(_rows, database)  # type: ignore[union-attr]
    try:
        yield database
    finally:
        await database.close()
