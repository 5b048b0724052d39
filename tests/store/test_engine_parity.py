"""What the end-to-end suite on PostgreSQL found where the two engines differed, held here on
both engines (the `db` fixture: SQLite, then PostgreSQL) where it is quick to run."""

from __future__ import annotations

from typing import Any

import aiosqlite
import pytest

from bot.store import Database, GroupStore, StoreError, oneshot
from bot.store.analytics import AnalyticsStore
from bot.store.db import current_update
from bot.store.errors import IntegrityError
from bot.store.location import Location

CHAT, USER, DAY = -100, 7, 86_400.0


async def test_a_refused_second_run_still_records_the_update_it_answered(db: Any) -> None:
    """A write function that catches a constraint violation (a second active run in a group)
    returns normally, and the update it handled is recorded as handled, on both engines."""
    store = GroupStore(db)
    assert await store.start_run(CHAT, 1, "quiz", "[]", 30.0, 1.0) is not None
    token = current_update.set(4242)
    try:
        assert await store.start_run(CHAT, 2, "other", "[]", 30.0, 2.0) is None
    finally:
        current_update.reset(token)
    assert await db.rows("SELECT update_id FROM handled_updates") == [(4242,)]
    assert await db.rows("SELECT count(*) FROM attempts") == [(1,)]


async def test_numbered_parameters_stand_for_the_same_value(db: Any) -> None:
    """`?1 … ?2 … ?1` (SQLite's numbered parameters), as the streak's activity query uses."""

    async def log(conn: aiosqlite.Connection) -> None:
        for at in (1 * DAY, 3 * DAY):
            await conn.execute(
                """INSERT INTO review_log (user_id, quiz_id, question_id, is_correct,
                                          answered_at) VALUES (?, 'q', 'q1', 1, ?)""",
                (USER, at),
            )

    await db.write(log)
    assert await AnalyticsStore(db).activity_since(USER, 2 * DAY) == [3 * DAY]
    assert await AnalyticsStore(db).activity_since(USER + 1, 0.0) == []


async def test_a_change_before_a_caught_violation_is_kept_or_refused_never_lost(db: Any) -> None:
    """SQLite undoes only the failing statement; PostgreSQL aborts the whole transaction, so
    there a write function that changed rows and then caught a violation is refused loudly."""

    async def change_then_violate(conn: aiosqlite.Connection) -> str:
        await conn.execute("INSERT INTO handled_updates (update_id, handled_at) VALUES (1, 1.0)")
        try:
            await conn.execute(
                "INSERT INTO handled_updates (update_id, handled_at) VALUES (1, 2.0)"
            )
        except IntegrityError:  # the store's own, on either engine
            return "caught"
        return "not raised"

    if isinstance(db, Database):
        assert await db.write(change_then_violate) == "caught"
        assert await db.rows("SELECT update_id FROM handled_updates") == [(1,)]
    else:
        with pytest.raises(StoreError, match="before a constraint violation"):
            await db.write(change_then_violate)
        assert await db.rows("SELECT update_id FROM handled_updates") == []


async def test_operator_reads_stream_from_either_engine(
    db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`quizbot export` and friends read through bot/store/oneshot.py, on either engine, a chunk
    at a time, from inside a running event loop too (as here)."""
    monkeypatch.setattr(oneshot, "CHUNK", 2)

    async def fill(conn: aiosqlite.Connection) -> None:
        for key in range(5):
            await conn.execute(
                "INSERT INTO handled_updates (update_id, handled_at) VALUES (?, ?)",
                (key, float(key)),
            )

    await db.write(fill)
    where = Location(path=db.path) if isinstance(db, Database) else Location(dsn=db.dsn)
    sql = "SELECT update_id FROM handled_updates WHERE update_id >= ? ORDER BY update_id"
    assert list(oneshot.read_rows(where, sql, (1,))) == [(1,), (2,), (3,), (4,)]
    missing = (
        Location(path=db.path.with_name("none.sqlite3"))
        if isinstance(db, Database)
        else (Location(dsn=db.dsn.replace("/t", "/missing", 1)))
    )
    with pytest.raises(StoreError, match="cannot read"):
        list(oneshot.read_rows(missing, sql, (1,)))
