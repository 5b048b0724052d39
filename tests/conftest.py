"""Shared fixtures: a real SQLite file per test."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterator
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


# Slow folders first. Their tests start processes, browsers and servers, and wait on real
# timers; collected last (alphabetically), they once ran after everything else while the
# other xdist workers sat idle. Sent first, a test or two at a time (`--maxschedchunk 2` in
# pyproject.toml), they run beside the quick ones, which fill in the end of the run.
SLOW_FIRST = ("workers", "reliability", "sandbox", "bench", "observability", "web", "e2e")
TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        folder = item.path.relative_to(TESTS).parts[0]
        return SLOW_FIRST.index(folder) if folder in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)  # stable: each folder keeps its own order


@pytest.fixture(autouse=True)
def _root_logging_restored() -> Iterator[None]:
    """A command run in-process (`main([...])`) sets up logging for the whole interpreter
    (`bot.logs.setup`: a handler and level INFO on the root logger); put it back after each
    test, so a later test's captured stderr does not get another test's log lines."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


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
