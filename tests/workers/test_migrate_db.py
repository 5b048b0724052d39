"""`quizbot migrate-db`: a SQLite deployment copied whole into PostgreSQL, or nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main
from bot.store import Database, GroupStore, LearnerStore
from bot.store.location import parse_location
from bot.store.pg.cluster import Cluster
from bot.store.pg.database import PgDatabase
from tests.pgserver import new_database


async def _deployment(path: Path) -> None:
    """A small real deployment: learners, a finished attempt with a miss, a group run."""
    db = Database(path)
    await db.open()
    learners, groups = LearnerStore(db), GroupStore(db)
    for uid in (5, 6):
        await learners.touch_user(uid, f"u{uid}", "fr", 1.0, private=True)
    attempt = await learners.start_attempt(5, "quiz", ((0, 1), (1, 0)), 2.0)
    await groups.start_run(-100, 6, "quiz", "[[0, 1]]", 30.0, 3.0)
    await db.close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            """INSERT INTO answers (attempt_id, question_index, user_id, option_index,
                                    is_correct, language, answered_at)
               VALUES (?, 0, 5, 1, 0, 'fr', 4.0)""",
            (attempt,),
        )
    conn.close()


def _counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


def test_everything_is_copied_and_ids_continue(
    tmp_path: Path, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command runs its own event loop: this test has none running.
    source = tmp_path / "q.sqlite3"
    asyncio.run(_deployment(source))
    dsn = asyncio.run(new_database(pg_cluster, migrated=False))
    assert main(["migrate-db", "--from", f"sqlite:///{source}", "--to", dsn]) == 0
    assert "rows of" in capsys.readouterr().out
    asyncio.run(_check_copy(source, dsn))


async def _check_copy(source: Path, dsn: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        for table, count in _counts(source).items():
            assert await conn.fetchval(f'SELECT count(*) FROM "{table}"') == count, table
        assert await conn.fetchval("SELECT count(*) FROM review_inbox") == 1  # copied, not doubled
    finally:
        await conn.close()
    db = PgDatabase(dsn)
    await db.open()
    try:
        learners = LearnerStore(db)  # type: ignore[arg-type]
        user = await learners.user(5)
        assert user is not None and (user.first_name, user.telegram_language) == ("u5", "fr")
        old = await learners.active_attempt(5)
        assert old is not None and old.answers == (1, None)
        new = await learners.start_attempt(6, "quiz", ((0, 1),), 9.0)
        assert new > old.id  # the identity continues after the copied ids
    finally:
        await db.close()


def test_a_non_empty_target_is_refused_and_left_alone(
    tmp_path: Path, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "q.sqlite3"
    asyncio.run(_deployment(source))
    dsn = asyncio.run(new_database(pg_cluster, migrated=False))
    assert main(["migrate-db", "--from", str(source), "--to", dsn]) == 0
    assert main(["migrate-db", "--from", str(source), "--to", dsn]) == 1
    assert "not empty" in capsys.readouterr().err
    assert asyncio.run(_users(dsn)) == 2


async def _users(dsn: str) -> int:
    conn = await asyncpg.connect(dsn)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM users"))
    finally:
        await conn.close()


def test_wrong_directions_and_schemes_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate-db", "--from", "postgresql://x/y", "--to", "postgresql://x/z"]) == 2
    assert main(["migrate-db", "--from", "mysql://x/y", "--to", "postgresql://x/z"]) == 2
    missing = tmp_path / "missing.sqlite3"
    assert main(["migrate-db", "--from", str(missing), "--to", "postgresql://x/z"]) == 1
    assert "no such SQLite file" in capsys.readouterr().err


def test_locations() -> None:
    assert parse_location("data/q.sqlite3").path == Path("data/q.sqlite3")
    assert parse_location("sqlite:///data/q.sqlite3").path == Path("data/q.sqlite3")
    assert parse_location("sqlite:////srv/q.sqlite3").path == Path("/srv/q.sqlite3")
    pg = parse_location("postgresql://bot:secret@db/quizbot")
    assert pg.is_postgres and str(pg) == "postgresql://bot:***@db/quizbot"
    # asyncpg also reads the password from the query string: hidden there too.
    query = parse_location("postgresql://bot@db/quizbot?sslmode=require&password=secret&x=1")
    assert str(query) == "postgresql://bot@db/quizbot?sslmode=require&password=***&x=1"
