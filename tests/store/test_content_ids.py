"""Migration 006: answers stored by question index before it get their content ids from the
catalogue of the first start after it, once; misses waiting in the review inbox too."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from bot.store import Database
from bot.store.content_ids import convert_old_answers
from bot.store.db import migrations
from bot.store.reviews import ReviewStore
from bot.usecases.spaced_review import SpacedReview
from tests.e2e.harness import shipped_catalog

QUIZ = "gradient-accumulation"
NOW = 1_790_000_000.0


def old_database(path: Path) -> None:
    """A database as quizbot wrote it before 006: answers know positions only."""
    conn = sqlite3.connect(path)
    for number, _, sql in migrations():
        if number <= 3:
            conn.executescript(sql)
    conn.execute("PRAGMA user_version = 3")
    conn.execute(
        """INSERT INTO attempts (id, kind, chat_id, user_id, quiz_id, option_orders, status,
                                 started_at, finished_at)
           VALUES (1, 'private', 5, 5, ?, '[]', 'finished', ?, ?),
                  (2, 'group', -100, 1, ?, '[]', 'finished', ?, ?),
                  (3, 'private', 6, 6, 'quiz-that-left', '[]', 'finished', ?, ?)""",
        (QUIZ, NOW, NOW, QUIZ, NOW, NOW, NOW, NOW),
    )
    rows = [
        (1, 0, 5, 1, 0),  # question 0, option 1, wrong
        (1, 2, 5, 3, 0),
        (1, 3, 5, 0, 1),
        (2, 0, 7, 2, 0),
        (2, 7, 8, 9, 0),  # an option position the content does not have
        (3, 0, 6, 0, 0),  # a quiz that left the content
    ]
    conn.executemany(
        """INSERT INTO answers (attempt_id, question_index, user_id, option_index, is_correct,
                                language, answered_at) VALUES (?, ?, ?, ?, ?, 'en', ?)""",
        [(*row, NOW) for row in rows],
    )
    conn.commit()
    conn.close()


async def test_old_answers_get_the_ids_of_the_catalogue_at_migration(tmp_path: Path) -> None:
    path = tmp_path / "quizbot.sqlite3"
    old_database(path)
    catalog = shipped_catalog()
    quiz = catalog.quizzes[QUIZ]
    db = Database(path)
    await db.open()
    try:
        assert await convert_old_answers(db, catalog) > 0
        assert await convert_old_answers(db, catalog) == 0  # once
        async with db.reader.execute(
            """SELECT attempt_id, question_index, user_id, question_id, option_id
               FROM answers ORDER BY attempt_id, question_index"""
        ) as cur:
            got = {(a, q, u): (qid, oid) for a, q, u, qid, oid in await cur.fetchall()}
        q = quiz.questions
        assert got[1, 0, 5] == (q[0].id, q[0].options[1].id)
        assert got[1, 2, 5] == (q[2].id, q[2].options[3].id)
        assert got[2, 0, 7] == (q[0].id, q[0].options[2].id)
        assert got[2, 7, 8] == (q[7].id, "")  # unknown, never a guess
        assert got[3, 0, 6] == ("", "")

        progress = SpacedReview(catalog, ReviewStore(db), clock=lambda: NOW, rng=random.Random(1))
        await progress.sync()
        queued = {(i.user_id, i.question_id) for i in await progress.store.items(5)}
        assert queued == {(5, q[0].id), (5, q[2].id)}
        assert [i.question_id for i in await progress.store.items(7)] == [q[0].id]
        assert await progress.store.items(6) == []  # its quiz left: nothing to review
    finally:
        await db.close()
