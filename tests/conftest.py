"""Shared fixtures: a real SQLite file per test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

# PTB warns when RetryAfter.retry_after is read as an int unless this is set; tests run -W error.
os.environ.setdefault("PTB_TIMEDELTA", "true")

from bot.store import Database  # noqa: E402


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(tmp_path / "quizbot.sqlite3")
    await database.open()
    try:
        yield database
    finally:
        await database.close()
