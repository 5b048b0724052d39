"""Queries behind practice sets: one active set per learner, and what each has seen this cycle.

An answer moves the set on only if it answers the question the set is waiting for, in the same
statement (`answered = ?`), so a double tap or a replayed update cannot count twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.core.practice import QuestionKey
from bot.store.db import Database


@dataclass(frozen=True, slots=True)
class StoredSet:
    id: int
    user_id: int
    questions: tuple[QuestionKey, ...]
    orders: tuple[tuple[int, ...], ...]
    answered: int
    correct: int
    status: str


def _set(row: aiosqlite.Row) -> StoredSet:
    return StoredSet(
        id=int(row[0]),
        user_id=int(row[1]),
        questions=tuple(QuestionKey.decode(k) for k in json.loads(row[2])),
        orders=tuple(tuple(o) for o in json.loads(row[3])),
        answered=int(row[4]),
        correct=int(row[5]),
        status=str(row[6]),
    )


class PracticeStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def seen(self, user_id: int) -> set[QuestionKey]:
        async with self.db.reader.execute(
            "SELECT quiz_id, question_id FROM practice_seen WHERE user_id = ?", (user_id,)
        ) as cur:
            return {QuestionKey(str(r[0]), str(r[1])) async for r in cur}

    async def start(
        self,
        user_id: int,
        questions: Sequence[QuestionKey],
        orders: Sequence[Sequence[int]],
        seen: Sequence[QuestionKey],
        now: float,
    ) -> int:
        """A new set (any running one is abandoned) and the learner's seen questions, at once."""

        async def write(conn: aiosqlite.Connection) -> int:
            await conn.execute(
                """UPDATE practice_sets SET status = 'abandoned', finished_at = ?
                   WHERE user_id = ? AND status = 'active'""",
                (now, user_id),
            )
            await conn.execute("DELETE FROM practice_seen WHERE user_id = ?", (user_id,))
            if seen:
                await conn.executemany(
                    """INSERT INTO practice_seen (user_id, quiz_id, question_id)
                       VALUES (?, ?, ?)""",
                    [(user_id, key.quiz_id, key.question_id) for key in seen],
                )
            async with conn.execute(
                """INSERT INTO practice_sets (user_id, questions, orders, started_at)
                   VALUES (?, ?, ?, ?) RETURNING id""",
                (
                    user_id,
                    json.dumps([key.encode() for key in questions]),
                    json.dumps([list(order) for order in orders]),
                    now,
                ),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            return int(row[0])

        return await self.db.write(write)

    async def get(self, set_id: int) -> StoredSet | None:
        async with self.db.reader.execute(
            """SELECT id, user_id, questions, orders, answered, correct, status
               FROM practice_sets WHERE id = ?""",
            (set_id,),
        ) as cur:
            row = await cur.fetchone()
        return _set(row) if row else None

    async def answer(
        self, set_id: int, index: int, is_correct: bool, total: int, now: float
    ) -> bool:
        """Count the answer to question `index` if the set waits for it; finish after the last."""

        async def write(conn: aiosqlite.Connection) -> bool:
            cur = await conn.execute(
                """UPDATE practice_sets SET answered = answered + 1, correct = correct + ?,
                       status = CASE WHEN answered + 1 >= ? THEN 'finished' ELSE status END,
                       finished_at = CASE WHEN answered + 1 >= ? THEN ? ELSE finished_at END
                   WHERE id = ? AND answered = ? AND status = 'active'""",
                (int(is_correct), total, total, now, set_id, index),
            )
            return cur.rowcount == 1

        return await self.db.write(write)
