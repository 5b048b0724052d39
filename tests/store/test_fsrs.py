"""FSRS in the store, on both engines: Leitner queues migrated by 028 with nothing due lost, the
rating log every review and miss writes, the medians that rate Hard and Easy, and the fitted
parameters the scheduler uses afterwards."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import asyncpg
from fsrs import Rating

from bot.core.review import DEFAULT_SCHEDULER, ReviewItem, after_miss, due_after, from_box
from bot.store import Database
from bot.store.db import migrations as sqlite_migrations
from bot.store.forget import ForgetStore
from bot.store.interface import Engine
from bot.store.pg import schema
from bot.store.pg.cluster import Cluster
from bot.store.pg.database import PgDatabase
from bot.store.reviews import ReviewStore
from bot.usecases.spaced_review import SpacedReview
from tests.e2e.harness import shipped_catalog
from tests.pgserver import new_database
from tests.store.progress_kit import DAY, NOW, QUIZ, Clock

FSRS_MIGRATION = 28
USER = 5
UTC = ZoneInfo("UTC")

# What a Leitner queue looked like before 028: box, due (relative to NOW), last seen.
LEITNER = [
    (1, -2 * DAY, -3 * DAY),  # due (overdue)
    (2, -1, -3 * DAY),  # due a second ago
    (3, 0.0, -7 * DAY),  # due exactly now
    (4, 5 * DAY, -9 * DAY),
    (5, 20 * DAY, -10 * DAY),
]
ITEMS = """INSERT INTO review_items (user_id, quiz_id, question_id, box, due_at, last_seen_at)
           VALUES ({})"""
LOG = """INSERT INTO review_log (user_id, quiz_id, question_id, box, is_correct, answered_at,
                                option_id, content_version) VALUES ({})"""


def _question_ids() -> list[str]:
    return [q.id for q in shipped_catalog().quizzes[QUIZ].questions][: len(LEITNER)]


def _leitner_rows() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    ids = _question_ids()
    items = [(USER, QUIZ, q, box, NOW + due, NOW + seen) for q, (box, due, seen) in
             zip(ids, LEITNER, strict=True)]  # fmt: skip
    log = [(USER, QUIZ, ids[0], 2, 0, NOW - 3 * DAY, "a", "v1"),
           (USER, QUIZ, ids[1], 1, 1, NOW - 3 * DAY, "b", "v1")]  # fmt: skip
    return items, log


async def _old_store(engine: Cluster | None, tmp_path: Path) -> Engine:
    """A store built by migrations 001..027 holding a Leitner queue, then opened by this
    quizbot (which applies 028)."""
    items, log = _leitner_rows()
    if engine is None:
        path = tmp_path / "old.sqlite3"
        conn = sqlite3.connect(path)
        for number, _, sql in sqlite_migrations():
            if number < FSRS_MIGRATION:
                conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;")
        conn.executemany(ITEMS.format(", ".join("?" * 6)), items)
        conn.executemany(LOG.format(", ".join("?" * 8)), log)
        conn.commit()
        conn.close()
        db: Engine = Database(path)
    else:
        dsn = await new_database(engine, migrated=False)
        pg = await asyncpg.connect(dsn)
        try:
            await pg.execute(
                "CREATE TABLE quizbot_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            )
            for number, _, sql in schema.migrations(schema.STORE):
                if number < FSRS_MIGRATION:
                    await pg.execute(sql)
                    last = number
            await pg.execute("INSERT INTO quizbot_schema VALUES ($1, $2)", schema.STORE, last)
            await pg.executemany(ITEMS.format("$1, $2, $3, $4, $5, $6"), items)
            await pg.executemany(LOG.format("$1, $2, $3, $4, $5, $6, $7, $8"), log)
        finally:
            await pg.close()
        db = PgDatabase(dsn)
    await db.open()
    return db


async def test_leitner_queues_migrate_to_fsrs_and_nothing_due_is_lost(
    engine: Cluster | None, tmp_path: Path
) -> None:
    db = await _old_store(engine, tmp_path)
    try:
        store = ReviewStore(db)
        got = {i.question_id: i for i in await store.items(USER)}
        for q, (box, due, seen) in zip(_question_ids(), LEITNER, strict=True):
            stability, difficulty = from_box(box)
            assert got[q] == ReviewItem(USER, QUIZ, q, stability, difficulty, NOW + due, NOW + seen)
        # Due before: due after, in the same order; not due: same day as before.
        assert await store.due_count(USER, NOW) == 3
        found = await store.next_due(USER, NOW)
        assert found is not None and found[1].question_id == _question_ids()[0]
        assert await store.next_due_at(USER) == NOW - 2 * DAY
        # The old review log joins the rating log as Again / Good, untimed.
        ratings = await store.ratings()
        assert sorted((r.question_id, r.rating, r.elapsed_ms) for r in ratings) == sorted(
            [(_question_ids()[0], 1, None), (_question_ids()[1], 3, None)]
        )
        # A migrated question is reviewed by FSRS from the state the mapping gave it.
        clock = Clock()
        review = SpacedReview(shipped_catalog(), store, clock=clock)
        card = await review.next_card(USER)
        assert card is not None
        order = "".join(map(str, card.order))
        done = await review.answer(
            USER, card.item_id, order, card.order.index(card.question.correct)
        )
        assert done is not None and done.rating is Rating.Good
        assert done.after.stability > card.item.stability and done.after.due_at > NOW + DAY
    finally:
        await db.close()


async def test_every_miss_and_review_is_a_rating_row(db: Any) -> None:
    clock = Clock()
    store = ReviewStore(db)
    review = SpacedReview(shipped_catalog(), store, clock=clock)
    q1, q2 = _question_ids()[:2]
    await store.ingest(
        [after_miss(USER, QUIZ, q1, NOW, UTC), after_miss(USER, QUIZ, q2, NOW, UTC)], []
    )
    clock.now = NOW + DAY
    card = await review.next_card(USER)
    assert card is not None
    order = "".join(map(str, card.order))
    wrong = card.order.index((card.question.correct + 1) % len(card.question.options))
    done = await review.answer(USER, card.item_id, order, wrong, elapsed_ms=4_200)
    assert done is not None and done.rating is Rating.Again
    rows = await db.rows(
        """SELECT question_id, rating, elapsed_ms, reviewed_at FROM review_ratings
           ORDER BY reviewed_at, id"""
    )
    assert sorted(rows[:2]) == sorted([(q1, 1, None, NOW), (q2, 1, None, NOW)])  # the misses: Again
    assert rows[2] == (card.item.question_id, 1, 4_200, NOW + DAY)
    assert await db.rows("SELECT is_correct, answered_at FROM review_log") == [(0, NOW + DAY)]
    # /forget takes the learner's ratings with the rest.
    await ForgetStore(db).forget(USER)
    assert await db.rows("SELECT count(*) FROM review_ratings") == [(0,)]


async def test_a_questions_median_time_rates_hard_and_easy(db: Any) -> None:
    """Five learners answered in 10 s: a right answer in 4 s is Easy, in 12 s Hard, in 6 s
    Good; the timing of the question's own log, any learner's."""
    clock = Clock()
    store = ReviewStore(db)
    review = SpacedReview(shipped_catalog(), store, clock=clock)
    q = _question_ids()[0]
    learners = {10: None, 11: None, 12: None, 13: None, 14: None, 20: 4_000, 21: 12_000, 22: 6_000}
    await store.ingest([after_miss(u, QUIZ, q, NOW, UTC) for u in learners], [])
    clock.now = NOW + DAY
    got = {}
    for user, elapsed in learners.items():
        card = await review.next_card(user)
        assert card is not None
        order = "".join(map(str, card.order))
        right = card.order.index(card.question.correct)
        done = await review.answer(user, card.item_id, order, right, elapsed_ms=elapsed or 10_000)
        assert done is not None
        got[user] = done.rating
    assert [got[u] for u in (10, 11, 12, 13, 14)] == [Rating.Good] * 5  # no median yet
    assert (got[20], got[21], got[22]) == (Rating.Easy, Rating.Hard, Rating.Good)
    assert await store.answer_times(QUIZ, q) == [6_000, 12_000, 4_000] + [10_000] * 5


async def test_fitted_parameters_are_stored_and_used_by_the_scheduler(db: Any) -> None:
    store = ReviewStore(db)
    assert await store.parameters() is None
    fitted = list(DEFAULT_SCHEDULER.parameters)
    fitted[0] = 2.5  # a first Again remembered for 2.5 days: due 2 days on, not tomorrow
    await store.set_parameters(fitted, 400, NOW)
    assert await store.parameters() == tuple(fitted)
    clock = Clock()
    review = SpacedReview(shipped_catalog(), store, clock=clock)
    q = _question_ids()[0]
    await review.sync()
    assert review.fsrs.parameters[0] == 2.5
    miss = after_miss(USER, QUIZ, q, NOW, UTC, review.fsrs)
    assert miss.stability == 2.5 and miss.due_at == due_after(NOW, 2, UTC)
