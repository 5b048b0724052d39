"""The store on a real SQLite file and on PostgreSQL (tests/pgserver.py): migrations,
constraints, one writer, restarts."""

from __future__ import annotations

import asyncio
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from bot.core.engine import Status
from bot.store import Database, GroupStore, LearnerStore, Stored, StoreError

ORDERS = ((1, 0, 2, 3), (3, 2, 1, 0))


@pytest.mark.parametrize("engine", ["sqlite"], indirect=True)  # a property of SQLite's file
async def test_file_is_private_and_in_wal(db: Database) -> None:
    assert stat.S_IMODE(db.path.stat().st_mode) == 0o600
    async with db.reader.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"


async def test_attempt_round_trip_and_restart(tmp_path: Path) -> None:
    path = tmp_path / "q.sqlite3"
    db = Database(path)
    await db.open()
    store = LearnerStore(db)
    await store.touch_user(7, "Awa", "fr", 1.0, private=True)
    attempt_id = await store.start_attempt(7, "quiz", ORDERS, 2.0)
    attempt = await store.active_attempt(7)
    assert attempt is not None and attempt.orders == ORDERS
    assert await store.record_answer(attempt, 0, 1, True, "fr", 3.0, question_id="q", option_id="a")
    await db.close()

    db = Database(path)
    await db.open()
    try:
        again = await LearnerStore(db).attempt(attempt_id)
        assert again is not None
        assert again.orders == ORDERS and again.answers == (1, None) and again.current == 1
    finally:
        await db.close()


async def test_answers_of_user_ids_past_two_to_the_31(db: Database) -> None:
    """Telegram user ids pass 2^31: their answers are stored on both engines (PostgreSQL
    refused them as out of int32 range, private and group answers alike)."""
    big = 7_000_000_001
    store = LearnerStore(db)
    attempt_id = await store.start_attempt(big, "quiz", ORDERS, 1.0)
    attempt = await store.attempt(attempt_id)
    assert attempt is not None
    assert await store.record_answer(attempt, 0, 1, True, "en", 2.0, question_id="q", option_id="a")
    groups = GroupStore(db)
    run_id = await groups.start_run(-100, 1, "quiz", "[[0,1]]", 30.0, 1.0)
    assert run_id is not None
    await groups.open_question(run_id, 0, 1.0, 31.0)
    stored = await groups.record_answer(
        run_id, 0, big, "Big", "en", 1, True, "en", 2.0, 100,
        question_id="q", option_id="b", version="v",
    )  # fmt: skip
    assert stored is Stored.STORED


async def test_one_answer_per_question_even_when_racing(db: Database) -> None:
    store = LearnerStore(db)
    await store.start_attempt(7, "quiz", ORDERS, 1.0)
    attempt = await store.active_attempt(7)
    assert attempt is not None
    results = await asyncio.gather(
        *(
            store.record_answer(attempt, 0, i % 4, False, "en", 2.0, question_id="q", option_id="a")
            for i in range(8)
        )
    )
    assert results.count(True) == 1
    async with db.reader.execute("SELECT count(*) FROM answers") as cur:
        assert (await cur.fetchone())[0] == 1


async def test_no_answer_into_an_abandoned_attempt(db: Database) -> None:
    store = LearnerStore(db)
    await store.start_attempt(7, "quiz", ORDERS, 1.0)
    attempt = await store.active_attempt(7)
    assert attempt is not None
    assert await store.abandon(7, 2.0) == attempt.id
    assert not await store.record_answer(
        attempt, 0, 1, True, "en", 3.0, question_id="q", option_id="a"
    )
    assert await store.active_attempt(7) is None


async def test_starting_again_abandons_the_running_attempt(db: Database) -> None:
    store = LearnerStore(db)
    first = await store.start_attempt(7, "quiz", ORDERS, 1.0)
    second = await store.start_attempt(7, "quiz", ORDERS, 2.0)
    old = await store.attempt(first)
    assert old is not None and old.status is Status.ABANDONED
    current = await store.active_attempt(7)
    assert current is not None and current.id == second


async def test_finishing_answer_closes_the_attempt(db: Database) -> None:
    store = LearnerStore(db)
    await store.start_attempt(7, "quiz", ORDERS, 1.0)
    attempt = await store.active_attempt(7)
    assert attempt is not None
    await store.record_answer(attempt, 0, 1, True, "en", 2.0, question_id="q", option_id="a")
    running = await store.attempt(attempt.id)
    assert running is not None and running.status is Status.ACTIVE
    await store.record_answer(attempt, 1, 0, False, "en", 3.0, question_id="q", option_id="a")
    done = await store.attempt(attempt.id)
    assert done is not None and done.status is Status.FINISHED and done.answers == (1, 0)
    # Closed by its last answer: nothing more goes in.
    assert not await store.record_answer(
        attempt, 1, 2, True, "en", 4.0, question_id="q", option_id="a"
    )


async def test_answers_in_one_batch_say_which_were_new_and_a_bad_one_fails_alone(
    db: Database,
) -> None:
    store = LearnerStore(db)
    attempts = []
    for user in range(1, 5):
        await store.start_attempt(user, "quiz", ORDERS, 1.0)
        attempt = await store.active_attempt(user)
        assert attempt is not None
        attempts.append(attempt)
    results = await asyncio.gather(
        store.record_answer(attempts[0], 0, 1, True, "en", 2.0, question_id="q", option_id="a"),
        store.record_answer(
            attempts[0], 0, 2, False, "en", 2.0, question_id="q", option_id="a"
        ),  # a double tap
        store.record_answer(
            attempts[1], 0, -1, False, "en", 2.0, question_id="q", option_id="a"
        ),  # breaks a CHECK
        store.record_answer(attempts[2], 0, 3, False, "en", 2.0, question_id="q", option_id="a"),
        store.record_answer(attempts[3], 0, 0, False, "en", 2.0, question_id="q", option_id="a"),
        store.record_answer(
            attempts[3], 1, 0, False, "en", 2.0, question_id="q", option_id="a"
        ),  # finishes its attempt
        return_exceptions=True,
    )
    assert results[0] is True and results[1] is False
    assert isinstance(results[2], StoreError)
    assert results[3:] == [True, True, True]
    last = await store.attempt(attempts[3].id)
    assert last is not None and last.status is Status.FINISHED
    assert await db.rows("SELECT count(*) FROM answers") == [(4,)]


async def test_a_failing_write_does_not_undo_its_neighbours(db: Database) -> None:
    store = LearnerStore(db)

    async def broken(conn):  # type: ignore[no-untyped-def]
        await conn.execute("INSERT INTO no_such_table VALUES (1)")

    results = await asyncio.gather(
        store.touch_user(1, "a", None, 1.0, private=True),
        db.write(broken),
        store.touch_user(2, "b", None, 1.0, private=True),
        return_exceptions=True,
    )
    # The engine's own error (sqlite3.OperationalError, asyncpg's UndefinedTableError), alone.
    assert isinstance(results[1], Exception) and "no_such_table" in str(results[1])
    assert await store.user(1) is not None and await store.user(2) is not None


async def test_user_language_is_kept(db: Database) -> None:
    store = LearnerStore(db)
    await store.touch_user(7, "Awa", "fr-FR", 1.0, private=False)
    await store.set_language(7, "wo", 2.0)
    user = await store.touch_user(7, "Awa N.", "fr-FR", 3.0, private=True)
    assert (user.language, user.first_name, user.started_private) == ("wo", "Awa N.", True)


async def test_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    db = Database(path)
    with pytest.raises(StoreError, match="cannot use database"):
        await db.open()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    db = Database(path)
    with pytest.raises(StoreError, match="newer"):
        await db.open()


async def test_a_read_after_a_write_sees_it_while_other_reads_overlap(db: Database) -> None:
    """Overlapping reads on the shared reader must not pin an old snapshot."""
    store = LearnerStore(db)
    await store.touch_user(1, "a", None, 1.0, private=True)
    stop = asyncio.Event()

    async def reads() -> None:
        while not stop.is_set():
            await store.attempt(1)
            await store.user(1)

    readers = [asyncio.create_task(reads()) for _ in range(20)]
    try:
        for user_id in range(100, 160):
            await store.set_language(user_id, "fr", 2.0)
            user = await store.user(user_id)
            assert user is not None and user.language == "fr", user_id
    finally:
        stop.set()
        await asyncio.gather(*readers)


async def test_writes_made_for_an_update_record_it_and_old_ids_are_pruned(db: Database) -> None:
    from bot.store.handled_updates import UpdateLog, handling_update

    store, log = LearnerStore(db), UpdateLog(db)

    async def handle(update_id: int) -> None:  # each update in its own task, as PTB does
        handling_update(update_id)
        await store.set_language(update_id, "fr", 1.0)

    for update_id in (5, 6, 7):
        await asyncio.create_task(handle(update_id))
    await store.set_language(99, "en", 1.0)  # no update: nothing recorded
    assert await log.recent(10) == [5, 6, 7]
    assert await log.recent(2) == [6, 7]
    await log.prune(1)
    assert await log.recent(10) == [7]


async def test_writes_queued_together_record_the_updates_of_those_that_committed(
    db: Database,
) -> None:
    """Writes queued together share one transaction, a savepoint each, and record their updates
    in one statement at its end: a failing write's update is not recorded, its neighbours' are."""
    if not isinstance(db, Database):
        pytest.skip("SQLite's writer batches writes (PostgreSQL: bot/store/pg)")
    from bot.store.handled_updates import UpdateLog, handling_update

    store = LearnerStore(db)

    async def fine(update_id: int) -> None:
        handling_update(update_id)
        await store.set_language(update_id, "fr", 1.0)

    async def failing(update_id: int) -> None:
        handling_update(update_id)

        async def bad(conn: Any) -> None:
            await conn.execute("INSERT INTO no_such_table VALUES (1)")

        with pytest.raises(sqlite3.OperationalError):
            await db.write(bad)

    tasks = [asyncio.create_task(f(i)) for f, i in ((fine, 11), (failing, 12), (fine, 13))]
    await asyncio.gather(*tasks)
    assert sorted(await UpdateLog(db).recent(10)) == [11, 13]
