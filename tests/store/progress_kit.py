"""A learner's progress on a real store for store tests: a hand clock, a group answer, the quiz and
day they use. Shared by the progress, FSRS and review-round tests, so no test imports another."""

from __future__ import annotations

import random

import aiosqlite

from bot.core.engine import option_orders
from bot.store import Database
from bot.store.learners import encode_orders
from tests.e2e.harness import shipped_catalog

DAY = 86_400.0
NOW = 1_790_000_000.0
QUIZ = "gradient-accumulation"


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


async def group_answer(
    db: Database, chat: int, user: int, index: int, option: int, right: bool, at: float
) -> int:
    """A group attempt and one member's answer, written as the group code would."""

    async def write(conn: aiosqlite.Connection) -> int:
        orders = encode_orders(option_orders(shipped_catalog().quizzes[QUIZ], random.Random(0)))
        async with conn.execute(
            """INSERT INTO attempts (kind, chat_id, user_id, quiz_id, option_orders, status,
                                     started_at) VALUES ('group', ?, 1, ?, ?, 'finished', ?)
               RETURNING id""",
            (chat, QUIZ, orders, at),
        ) as cur:
            row = await cur.fetchone()
        assert row is not None
        question = shipped_catalog().quizzes[QUIZ].questions[index]
        await conn.execute(
            """INSERT INTO answers (attempt_id, question_index, user_id, option_index, is_correct,
                                    language, answered_at, elapsed_ms, question_id, option_id)
               VALUES (?, ?, ?, ?, ?, 'fr', ?, 1200, ?, ?)""",
            (row[0], index, user, option, right, at, question.id, question.options[option].id),
        )
        return int(row[0])

    return await db.write(write)
