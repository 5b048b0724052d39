"""Shared fixtures: a real SQLite file per test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

# PTB warns when RetryAfter.retry_after is read as an int unless this is set; tests run -W error.
os.environ.setdefault("PTB_TIMEDELTA", "true")

import functools
import threading

import aiosqlite.core

from bot.store import Database

# A test that fails before its finaliser runs must not leave a non-daemon aiosqlite thread that
# keeps the interpreter (and CI) waiting forever after the session ends.
aiosqlite.core.Thread = functools.partial(threading.Thread, daemon=True)  # type: ignore[misc]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test asking for `transport` runs on quizbot's default HTTP stack (or the one named by
    QUIZBOT_TRANSPORT); marked `both_transports`, on PTB's default (httpx) as well."""
    if "transport" in metafunc.fixturenames:
        default = os.environ.get("QUIZBOT_TRANSPORT", "aiohttp")
        both = metafunc.definition.get_closest_marker("both_transports") is not None
        metafunc.parametrize("transport", ["aiohttp", "httpx"] if both else [default])


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(tmp_path / "quizbot.sqlite3")
    await database.open()
    try:
        yield database
    finally:
        await database.close()


# The session's throwaway PostgreSQL server (one for the whole run, shared by tests/store,
# tests/usecases and tests/workers); `db` on both engines is opted into per folder.
from tests.pgserver import pg_cluster, pg_dsn, pg_pool  # noqa: E402

__all__ = ["pg_cluster", "pg_dsn", "pg_pool"]
