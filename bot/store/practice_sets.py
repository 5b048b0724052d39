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
from bot.store.interface import Engine


@dataclass(frozen=True, slots=True)
class StoredSet:
    id: int
    user_id: int
    questions: tuple[QuestionKey, ...]
    orders: tuple[tuple[int, ...], ...]
    answered: int
    correct: int
    status: str
    marks: str = ""  # per answered question: r(ight), w(rong), t(ime was up)
    kind: str = "practice"
    exam_clock: str | None = None
    exam_seconds: float | None = None
    started_at: float = 0.0
    shown_at: float | None = None


_COLUMNS = """SELECT id, user_id, questions, orders, answered, correct, status, marks, kind,
                     exam_clock, exam_seconds, started_at, shown_at
              FROM practice_sets"""
_SELECT = _COLUMNS + " WHERE id = ?"


def _set(row: aiosqlite.Row) -> StoredSet:
    return StoredSet(
        id=int(row[0]),
        user_id=int(row[1]),
        questions=tuple(QuestionKey.decode(k) for k in json.loads(row[2])),
        orders=tuple(tuple(o) for o in json.loads(row[3])),
        answered=int(row[4]),
        correct=int(row[5]),
        status=str(row[6]),
        marks=str(row[7]),
        kind=str(row[8]),
        exam_clock=row[9],
        exam_seconds=row[10],
        started_at=float(row[11]),
        shown_at=row[12],
    )


class PracticeStore:
    def __init__(self, db: Engine) -> None:
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
        seen: Sequence[QuestionKey] | None,
        now: float,
        exam: tuple[str, float] | None = None,
    ) -> int:
        """A new set (any running one is abandoned) and the learner's seen questions, at once.
        An exam (`exam` = (clock, seconds)) leaves the practice cycle alone (`seen` None)."""

        async def write(conn: aiosqlite.Connection) -> int:
            await conn.execute(
                """UPDATE practice_sets SET status = 'abandoned', finished_at = ?
                   WHERE user_id = ? AND status = 'active'""",
                (now, user_id),
            )
            if seen is not None:
                await conn.execute("DELETE FROM practice_seen WHERE user_id = ?", (user_id,))
            if seen:
                await conn.executemany(
                    """INSERT INTO practice_seen (user_id, quiz_id, question_id)
                       VALUES (?, ?, ?)""",
                    [(user_id, key.quiz_id, key.question_id) for key in seen],
                )
            clock, seconds = exam if exam is not None else (None, None)
            async with conn.execute(
                """INSERT INTO practice_sets (user_id, questions, orders, kind, exam_clock,
                                              exam_seconds, started_at, shown_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
                (
                    user_id,
                    json.dumps([key.encode() for key in questions]),
                    json.dumps([list(order) for order in orders]),
                    "practice" if exam is None else "exam",
                    clock,
                    seconds,
                    now,
                    now,
                ),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            return int(row[0])

        return await self.db.write(write)

    async def get(self, set_id: int) -> StoredSet | None:
        async with self.db.reader.execute(_SELECT, (set_id,)) as cur:
            row = await cur.fetchone()
        return _set(row) if row else None

    async def running_exams(self) -> list[StoredSet]:
        """Exams still running, whose timers start-up re-arms (JobQueue forgets them)."""
        query = _COLUMNS + " WHERE kind = 'exam' AND status = 'active' ORDER BY id"
        async with self.db.reader.execute(query) as cur:
            return [_set(row) async for row in cur]

    async def answer(self, set_id: int, index: int, marks: str, total: int, now: float) -> bool:
        """Record `marks` (one letter per question, from `index` on) if the set waits for
        question `index`; the set finishes once every question has a mark."""
        right = marks.count("r")

        async def write(conn: aiosqlite.Connection) -> bool:
            cur = await conn.execute(
                """UPDATE practice_sets SET answered = answered + ?, correct = correct + ?,
                       marks = marks || ?, shown_at = ?,
                       status = CASE WHEN answered + ? >= ? THEN 'finished' ELSE status END,
                       finished_at = CASE WHEN answered + ? >= ? THEN ? ELSE finished_at END
                   WHERE id = ? AND answered = ? AND status = 'active'""",
                (len(marks), right, marks, now, len(marks), total, len(marks), total, now,
                 set_id, index),
            )  # fmt: skip
            return cur.rowcount == 1

        return await self.db.write(write)
