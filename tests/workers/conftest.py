"""A real PostgreSQL server for the session, a fresh database per test.

The server is started from the machine's binaries (bot/store/pg/cluster.py: initdb + pg_ctl in
a temporary folder, as an unprivileged user when running as root) and stopped at the end. Where
PostgreSQL is not installed every test here is skipped with a message saying how to get it;
.ci/run installs it so that CI never skips them.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from bot.store.pg import schema
from bot.store.pg.cluster import Cluster, NoPostgres

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
