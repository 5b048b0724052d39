"""Two workers on one PostgreSQL keep a learner's choices and a group's settings in memory and
still answer right (issue 32): a change written by one worker is NOTIFY'd in its transaction,
the other hears it on its listening connection and drops its copy (store/row_changes.py,
store/pg/row_listener.py). If that connection drops, the caches keep nothing until it listens
again. Each "worker" is what `quizbot run --workers N` builds: a `PgDatabase(listen=True)` and
the services of `build_services` with `shared=True`.

A write made with plain SQL and no announcement (`_behind_its_back`) shows that a worker keeps
what it read; a change through the store shows that it hears the change."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot.compose import Services, ServiceSettings, build_services
from bot.content import default_content_dir
from bot.core.exam import ExamClock
from bot.store import LearnerStore
from bot.store.forget import ForgetStore
from bot.store.pg.database import PgDatabase
from bot.store.pg.row_listener import APPLICATION
from bot.usecases.catalog_ref import CatalogRef
from bot.usecases.learner_profile import Learner
from tests.e2e.harness import FakeClock, shipped_catalog

CHAT, SUPERGROUP = -800, -100_800
AWA = Learner(7, "Awa", "en", None, "en")


def _services(db: PgDatabase) -> Services:
    settings = ServiceSettings(content_dir=default_content_dir(), shared=True, clock=FakeClock())
    return build_services(settings, db, CatalogRef(shipped_catalog()))


@pytest.fixture
async def workers(pg_dsn: str) -> AsyncIterator[tuple[Services, Services]]:
    a, b = PgDatabase(pg_dsn, listen=True), PgDatabase(pg_dsn, listen=True)
    await a.open()
    await b.open()
    try:
        assert a.changes.listening and b.changes.listening
        yield _services(a), _services(b)
    finally:
        await a.close()
        await b.close()


async def _behind_its_back(db: PgDatabase, sql: str) -> None:
    """A change no store function made: nobody is told (what a cache that never re-reads
    would miss too; here it shows what is kept)."""

    async def change(conn: Any) -> None:
        await conn.execute(sql)

    await db.write(change)


async def _soon(probe: Callable[[], Awaitable[bool]], seconds: float = 10.0) -> bool:
    """Whether `probe` comes true within `seconds`: a NOTIFY reaches the other worker a few
    milliseconds after the commit."""
    for _ in range(int(seconds / 0.02)):
        if await probe():
            return True
        await asyncio.sleep(0.02)
    return await probe()


def _db(services: Services) -> PgDatabase:
    db = services.learners.store.db
    assert isinstance(db, PgDatabase)
    return db


async def test_a_language_chosen_on_another_worker_is_heard(
    workers: tuple[Services, Services],
) -> None:
    a, b = workers
    await b.learners.greet(AWA)
    assert await a.learners.chosen_language(AWA.user_id) is None  # read once, then kept:
    await _behind_its_back(_db(b), "UPDATE users SET language = 'wo' WHERE id = 7")
    assert await a.learners.chosen_language(AWA.user_id) is None
    await b.learners.choose(AWA, "fr")
    assert await _soon(lambda: _is(a.learners.chosen_language(AWA.user_id), "fr"))
    await b.learners.choose_zone(AWA.user_id, "Africa/Dakar")
    assert await _soon(lambda: _is(a.learners.zone(AWA.user_id), "Africa/Dakar"))
    await ForgetStore(_db(b)).forget(AWA.user_id)  # /forget on worker b
    assert await _soon(lambda: _is(a.learners.chosen_language(AWA.user_id), None))


async def test_a_group_setting_changed_on_another_worker_is_heard(
    workers: tuple[Services, Services],
) -> None:
    a, b = workers
    await _behind_its_back(  # recorded earlier (an announced write would reach a meanwhile)
        _db(b),
        f"""INSERT INTO groups (chat_id, title, language, seconds_per_question, timezone,
                               created_at, updated_at)
            VALUES ({CHAT}, 'Study', 'en', 30, 'UTC', 0, 0)""",
    )
    assert not (await a.group_settings.settings(CHAT)).popup_verdict
    await _behind_its_back(_db(b), f"UPDATE groups SET title = 'Quiet' WHERE chat_id = {CHAT}")
    assert (await a.group_settings.settings(CHAT)).title == "Study"  # kept
    await b.group_settings.change(CHAT, "popup", "verdict")  # an admin's button, on worker b

    async def verdict() -> bool:
        return (await a.group_settings.settings(CHAT)).popup_verdict

    assert await _soon(verdict)
    await b.group_settings.change(CHAT, "lang", "wo")

    async def wolof() -> bool:
        return (await a.group_settings.settings(CHAT)).language == "wo"

    assert await _soon(wolof)
    assert await a.group_settings.store.group(SUPERGROUP) is None  # kept: no such group yet
    await b.group_settings.migrate(CHAT, SUPERGROUP)

    async def moved() -> bool:
        found = await a.group_settings.store.group(SUPERGROUP)
        return found is not None and found.popup_verdict and found.language == "wo"

    assert await _soon(moved)
    assert await a.group_settings.store.group(CHAT) is None


async def test_an_exam_started_on_another_worker_is_heard(
    workers: tuple[Services, Services],
) -> None:
    """A private tap waits while the learner's exam runs (issue 25): worker a keeps "no exam"
    once read, and drops it when worker b starts one, so a's next tap knows."""
    a, b = workers
    await b.learners.greet(AWA)
    quiz_id = next(iter(shipped_catalog().quizzes))
    assert not await a.practice.exam_running(AWA.user_id)  # read once, then kept:
    await _behind_its_back(
        _db(b),
        """INSERT INTO practice_sets (user_id, questions, orders, kind, exam_clock,
                                      exam_seconds, started_at, shown_at)
           VALUES (7, '[]', '[]', 'exam', 't', 300, 0, 0)""",
    )
    assert not await a.practice.exam_running(AWA.user_id)  # kept: nobody was told
    await _behind_its_back(_db(b), "DELETE FROM practice_sets WHERE user_id = 7")
    await b.practice.start_exam(AWA.user_id, quiz_id, ExamClock.TOTAL, 300)  # on worker b

    async def in_exam() -> bool:
        return await a.practice.exam_running(AWA.user_id)

    assert await _soon(in_exam)


async def test_a_worker_whose_listening_connection_drops_keeps_nothing_until_it_listens(
    pg_dsn: str,
) -> None:
    a_db, b_db = PgDatabase(pg_dsn, listen=True), PgDatabase(pg_dsn)  # b: a writer only
    await a_db.open()
    await b_db.open()
    try:
        a, b = _services(a_db), LearnerStore(b_db)
        await _behind_its_back(
            b_db,
            "INSERT INTO users (id, language, created_at, updated_at) VALUES (7, 'en', 0, 0)",
        )
        assert await a.learners.chosen_language(AWA.user_id) == "en"
        await _behind_its_back(b_db, "UPDATE users SET language = 'wo' WHERE id = 7")
        assert await a.learners.chosen_language(AWA.user_id) == "en"  # kept

        await _terminate_listeners(b_db)  # e.g. PostgreSQL restarted, the network cut

        async def listening() -> bool:
            return a_db.changes.listening

        async def deaf() -> bool:
            return not a_db.changes.listening

        assert await _soon(deaf)  # a knows it may miss changes from now on
        await b.set_language(AWA.user_id, "fr", 2.0)  # its NOTIFY reaches no one
        assert await a.learners.chosen_language(AWA.user_id) == "fr"  # nothing kept
        assert await _soon(listening)  # listening again (a new connection, a second later)
        assert await a.learners.chosen_language(AWA.user_id) == "fr"
        await _behind_its_back(b_db, "UPDATE users SET language = 'wo' WHERE id = 7")
        assert await a.learners.chosen_language(AWA.user_id) == "fr"  # kept again
        await b.set_language(AWA.user_id, "en", 3.0)
        assert await _soon(lambda: _is(a.learners.chosen_language(AWA.user_id), "en"))
    finally:
        await a_db.close()
        await b_db.close()


async def _terminate_listeners(db: PgDatabase) -> None:
    """End every listening connection of the database, and wait until its backend is gone:
    a notification sent from then on cannot reach it."""
    sessions = """SELECT pid FROM pg_stat_activity
                  WHERE application_name = $1 AND datname = current_database()"""
    async with db.pool.acquire() as conn:
        pids = [row["pid"] for row in await conn.fetch(sessions, APPLICATION)]
        assert pids, "no listening connection"
        for pid in pids:
            await conn.execute("SELECT pg_terminate_backend($1)", pid)
        for _ in range(500):
            if not await conn.fetch(sessions, APPLICATION):
                return
            await asyncio.sleep(0.01)
    raise AssertionError("the listener's backend did not end")


async def _is(value: Awaitable[Any], expected: Any) -> bool:
    return await value == expected
