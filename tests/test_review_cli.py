"""`quizbot review optimize` on a real store: too few ratings leave the defaults; without
PyTorch (the optional extra `quizbot[optimizer]`, never installed in CI) it says how to install
it and stores nothing; with it, the fitted parameters are stored and used (skipped without)."""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.core.review import after_miss
from bot.store import Database
from bot.store.reviews import ReviewStore

NOW = 1_790_000_000.0
DAY = 86_400.0


async def _store_with_misses(path: Path, count: int) -> None:
    db = Database(path)
    await db.open()
    try:
        misses = [
            after_miss(user, "quiz", "q1", NOW + user * DAY, ZoneInfo("UTC"))
            for user in range(count)
        ]
        await ReviewStore(db).ingest(misses, [])
    finally:
        await db.close()


async def _parameters(path: Path) -> tuple[float, ...] | None:
    db = Database(path)
    await db.open()
    try:
        return await ReviewStore(db).parameters()
    finally:
        await db.close()


def _optimize(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "review", "optimize", "--db", str(path), *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_too_few_ratings_leave_the_default_parameters(tmp_path: Path) -> None:
    path = tmp_path / "q.sqlite3"
    asyncio.run(_store_with_misses(path, 3))
    done = _optimize(path)
    assert done.returncode == 0, done.stderr
    assert "3 ratings logged; the optimiser needs at least 400" in done.stdout
    assert asyncio.run(_parameters(path)) is None
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("torch") is not None, reason="PyTorch is installed here"
)
def test_without_pytorch_it_says_how_to_install_the_extra(tmp_path: Path) -> None:
    path = tmp_path / "q.sqlite3"
    asyncio.run(_store_with_misses(path, 5))
    done = _optimize(path, "--min-reviews", "5")
    assert done.returncode == 1
    assert "pip install 'quizbot[optimizer]'" in done.stderr and "Traceback" not in done.stderr
    assert asyncio.run(_parameters(path)) is None


def test_no_database_is_a_clear_message(tmp_path: Path) -> None:
    done = _optimize(tmp_path / "absent.sqlite3")
    assert done.returncode == 1 and "no database at" in done.stderr
    assert not (tmp_path / "absent.sqlite3").exists()


def test_with_pytorch_the_fitted_parameters_are_stored(tmp_path: Path) -> None:
    """Runs where the extra is installed (`quizbot[optimizer]`); CI does not install it."""
    pytest.importorskip("torch")
    path = tmp_path / "q.sqlite3"
    asyncio.run(_store_with_misses(path, 450))
    done = _optimize(path)
    assert done.returncode == 0, done.stderr
    fitted = asyncio.run(_parameters(path))
    assert fitted is not None and len(fitted) == 21
