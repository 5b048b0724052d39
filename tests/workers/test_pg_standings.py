"""Practice sets and exams on PostgreSQL, through PgDatabase (the store's query modules
unchanged). The standings' scenarios run on both engines in tests/store/test_run_scores.py."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.content import default_content_dir, load_catalog
from bot.core.exam import ExamClock
from bot.store.pg.database import PgDatabase
from bot.store.practice_sets import PracticeStore
from bot.store.reviews import ReviewStore
from bot.usecases.practice_outcomes import PracticeAnswered, PracticeQuestion
from bot.usecases.practice_session import PracticeSession


@pytest.fixture
async def pgdb(pg_dsn: str) -> AsyncIterator[PgDatabase]:
    db = PgDatabase(pg_dsn)
    await db.open()
    try:
        yield db
    finally:
        await db.close()


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
