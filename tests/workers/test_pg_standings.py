"""Standings, practice sets and exams on PostgreSQL: the same scenarios as on SQLite, through
PgDatabase (the store's query modules unchanged)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.content import default_content_dir, load_catalog
from bot.core.exam import ExamClock
from bot.store.pg.database import PgDatabase
from bot.store.practice_sets import PracticeStore
from bot.store.reviews import ReviewStore
from bot.usecases.practice_session import PracticeAnswered, PracticeQuestion, PracticeSession
from tests.store import test_run_scores as on_sqlite


@pytest.fixture
async def pgdb(pg_dsn: str) -> AsyncIterator[PgDatabase]:
    db = PgDatabase(pg_dsn)
    await db.open()
    try:
        yield db
    finally:
        await db.close()


async def test_windows_ties_and_time_zones(pgdb: PgDatabase) -> None:
    await on_sqlite.test_windows_follow_the_group_time_zone(pgdb)  # type: ignore[arg-type]


async def test_speed_mode_and_streak_bonus(pgdb: PgDatabase) -> None:
    await on_sqlite.test_speed_mode_streak_bonus_and_the_mode_kept_per_run(pgdb)  # type: ignore[arg-type]


async def test_moves_and_members_who_left(pgdb: PgDatabase) -> None:
    await on_sqlite.test_moves_up_and_members_who_left(pgdb)  # type: ignore[arg-type]


async def test_practice_and_exam(pgdb: PgDatabase) -> None:
    now = [1_800_000_000.0]
    session = PracticeSession(
        load_catalog(default_content_dir()),
        PracticeStore(pgdb),  # type: ignore[arg-type]
        ReviewStore(pgdb),  # type: ignore[arg-type]
        clock=lambda: now[0],
        rng=random.Random(3),
    )
    first = await session.start(7, set(), None, 5)
    assert isinstance(first, PracticeQuestion)
    wrong = (first.order.index(first.question.correct) + 1) % len(first.order)
    answered = await session.answer(7, first.set_id, 0, wrong)
    assert isinstance(answered, PracticeAnswered) and answered.missed == 1
    assert not isinstance(await session.answer(7, first.set_id, 0, wrong), PracticeAnswered)
    exam = await session.start_exam(7, "gradient-accumulation", ExamClock.TOTAL, 300)
    assert isinstance(exam, PracticeQuestion)
    now[0] += 301
    over = await session.answer(7, exam.set_id, 0, 0)
    assert isinstance(over, PracticeAnswered) and over.following is None
    assert [mark for _, mark in over.marked] == ["t"] * exam.total
