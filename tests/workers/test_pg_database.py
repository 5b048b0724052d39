"""The store's own query modules, unchanged, on PostgreSQL through PgDatabase."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.store import GroupStore, LearnerStore, Stored
from bot.store.pg.database import PgDatabase, PgStoreError


@pytest.fixture
async def pgdb(pg_dsn: str) -> AsyncIterator[PgDatabase]:
    db = PgDatabase(pg_dsn)
    await db.open()
    try:
        yield db
    finally:
        await db.close()


async def test_learners_round_trip(pgdb: PgDatabase) -> None:
    learners = LearnerStore(pgdb)  # type: ignore[arg-type]
    user = await learners.touch_user(5, "Awa", "fr", 1.0, private=True)
    assert user.started_private
    # SQLite's max(a, b) keeps the flag once set.
    assert (await learners.touch_user(5, "Awa", "fr", 2.0, private=False)).started_private
    await learners.set_language(5, "wo", 3.0)
    assert (await learners.user(5)).language == "wo"  # type: ignore[union-attr]
    first = await learners.start_attempt(5, "quiz", ((0, 1), (1, 0)), 4.0)
    second = await learners.start_attempt(5, "quiz", ((0, 1), (1, 0)), 5.0)
    active = await learners.active_attempt(5)
    assert active is not None and active.id == second != first
    assert await learners.abandon(5, 6.0) == second
    assert await learners.active_attempt(5) is None


async def test_a_constraint_answers_as_on_sqlite(pgdb: PgDatabase) -> None:
    groups = GroupStore(pgdb)  # type: ignore[arg-type]
    assert await groups.start_run(-100, 5, "quiz", "[[0, 1]]", 30.0, 5.0) is not None
    assert await groups.start_run(-100, 5, "quiz", "[[0, 1]]", 30.0, 5.0) is None


async def test_concurrent_writes_lose_nothing(pgdb: PgDatabase) -> None:
    learners = LearnerStore(pgdb)  # type: ignore[arg-type]
    await asyncio.gather(
        *(learners.touch_user(uid, f"u{uid}", "en", 1.0, private=True) for uid in range(40)),
        *(learners.set_language(uid, "fr", 2.0) for uid in range(40)),
    )
    for uid in range(40):
        user = await learners.user(uid)
        assert user is not None and user.language == "fr" and user.first_name == f"u{uid}"


async def test_an_unreachable_server_is_one_clear_error(tmp_path: object) -> None:
    db = PgDatabase(f"postgresql://quizbot:hunter2@/nowhere?host={tmp_path}&port=1")
    with pytest.raises(PgStoreError, match="cannot use database") as caught:
        await db.open()
    assert "hunter2" not in str(caught.value)


async def test_answers_and_forgetting_as_on_sqlite(pgdb: PgDatabase) -> None:
    from bot.store.forget import ForgetStore

    learners, groups = LearnerStore(pgdb), GroupStore(pgdb)  # type: ignore[arg-type]
    await learners.start_attempt(5, "quiz", ((0, 1), (1, 0)), 1.0)
    attempt = await learners.active_attempt(5)
    assert attempt is not None
    assert await learners.record_answer(
        attempt, 0, 1, True, "fr", 2.0, question_id="q0", option_id="a"
    )
    assert not await learners.record_answer(
        attempt, 0, 0, False, "fr", 2.5, question_id="q0", option_id="a"
    )  # a double tap
    assert await learners.record_answer(
        attempt, 1, 0, False, "fr", 3.0, question_id="q1", option_id="a"
    )
    assert await learners.active_attempt(5) is None  # the last answer finished it
    run = await groups.start_run(-100, 9, "quiz", "[[0, 1]]", 30.0, 5.0)
    assert run is not None
    await groups.open_question(run, 0, 5.5, 60.0)
    stored = await groups.record_answer(
        run,
        0,
        5,
        "Awa",
        "fr",
        1,
        True,
        "fr",
        6.0,
        400,
        question_id="q0",
        option_id="b",
        version="v1",
    )
    assert stored is Stored.STORED
    again = await groups.record_answer(
        run,
        0,
        5,
        "Awa",
        "fr",
        0,
        False,
        "fr",
        6.5,
        900,
        question_id="q0",
        option_id="b",
        version="v1",
    )
    assert again is Stored.DUPLICATE
    # A finished run's answer is kept under a pseudonym (one of a run still going goes).
    assert await groups.finish_run(run, "finished", 7.0)
    forgotten = await ForgetStore(pgdb).forget(5)  # type: ignore[arg-type]
    assert (forgotten.private_answers, forgotten.group_answers_kept) == (2, 1)
    assert await learners.user(5) is None


async def test_a_burst_of_answers_is_group_committed_and_each_outcome_is_its_own(
    pgdb: PgDatabase,
) -> None:
    """40 members tap at once (two of them twice): fewer statements than answers, every new
    answer stored once with its member's name, each double tap and each late tap refused."""
    from bot.store.db import current_update

    groups = GroupStore(pgdb)  # type: ignore[arg-type]
    run = await groups.start_run(-100, 9, "quiz", "[[0, 1]]", 30.0, 5.0)
    assert run is not None
    await groups.open_question(run, 0, 5.5, 60.0)
    before = pgdb.answers.statements

    async def tap(uid: int, option: int, update_id: int) -> Stored:
        current_update.set(update_id)  # each tap is its own task, handling its own update
        return await groups.record_answer(
            run, 0, uid, f"M{uid}", "fr", option, option == 1, "fr", 6.0, 400,
            question_id="q0", option_id="b", version="v1",
        )  # fmt: skip

    outcomes = await asyncio.gather(
        *(tap(uid, 1, 1000 + uid) for uid in range(40)), tap(3, 0, 2003), tap(7, 0, 2007)
    )
    assert outcomes[:40] == [Stored.STORED] * 40
    assert outcomes[40:] == [Stored.DUPLICATE, Stored.DUPLICATE]
    assert 1 <= pgdb.answers.statements - before < 42 / 2  # batched, not one per tap
    rows = await pgdb.pool.fetch(
        "SELECT user_id, option_index FROM answers WHERE attempt_id = $1 ORDER BY user_id", run
    )
    assert [(r["user_id"], r["option_index"]) for r in rows] == [(u, 1) for u in range(40)]
    names = await pgdb.pool.fetch("SELECT id, first_name FROM users ORDER BY id")
    assert [(r["id"], r["first_name"]) for r in names] == [(u, f"M{u}") for u in range(40)]
    handled = await pgdb.pool.fetchval(
        "SELECT count(*) FROM handled_updates WHERE update_id = ANY($1::bigint[])",
        [*range(1000, 1040), 2003, 2007],
    )
    assert handled == 42  # a redelivered update of any of them is known as handled
    assert await groups.close_question(run, 0)
    assert await tap(99, 1, 3000) is Stored.CLOSED  # too late: nothing stored
    assert await pgdb.pool.fetchval("SELECT count(*) FROM answers WHERE user_id = 99") == 0


async def test_a_long_running_process_keeps_its_connections_open(pg_dsn: str) -> None:
    """A worker's pool is opened whole and never closes an idle connection (issue 32): a new
    connection mid-burst is a server process forked, and asyncpg introspects the array types
    and prepares every statement again on it (3 round trips for `bigint[]` alone)."""
    db = PgDatabase(pg_dsn, pool_size=4, keep_warm=True)
    await db.open()
    try:
        assert db.pool.get_size() == 4
        backends = await db.pool.fetchval(
            "SELECT array_agg(pid ORDER BY pid) FROM pg_stat_activity "
            "WHERE datname = current_database()"
        )
        await asyncio.gather(*(db.pool.fetchval("SELECT pg_sleep(0.05)") for _ in range(8)))
        assert db.pool.get_size() == 4
        assert backends == await db.pool.fetchval(
            "SELECT array_agg(pid ORDER BY pid) FROM pg_stat_activity "
            "WHERE datname = current_database()"
        )
    finally:
        await db.close()
