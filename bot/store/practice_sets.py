"""Queries behind practice sets: one active set per learner, and what each has seen this cycle.

An answer moves the set on only if it answers the question the set is waiting for, in the same
statement (`answered = ?`), so a double tap or a replayed update cannot count twice.

An exam's misses join the review queue in the transaction that ends it, however it ends (its
last answer or its clock, /stop, a new set in its place), never before: a review card would show
the verdict and the key that the exam keeps for its end. Which questions are misses, and their
box and due date, the caller says (`Ended`: bot/usecases/practice_session.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import aiosqlite

from bot.core.practice import QuestionKey
from bot.core.review import ReviewItem
from bot.store.conn import Conn
from bot.store.interface import Engine
from bot.store.review_sessions import close_open
from bot.store.reviews import queue
from bot.store.row_changes import EXAMS


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
    # per answered question: the option id picked, "" when the time ran out (migration 031)
    picks: tuple[str, ...] = ()


_FIELDS = """id, user_id, questions, orders, answered, correct, status, marks, kind, exam_clock,
             exam_seconds, started_at, shown_at, picks"""
_COLUMNS = "SELECT " + _FIELDS + " FROM practice_sets"
_SELECT = _COLUMNS + " WHERE id = ?"
_ANSWER = (
    """UPDATE practice_sets SET answered = answered + ?, correct = correct + ?,
           marks = marks || ?, picks = picks || ?, shown_at = ?,
           status = CASE WHEN answered + ? >= ? THEN 'finished' ELSE status END,
           finished_at = CASE WHEN answered + ? >= ? THEN ? ELSE finished_at END
       WHERE id = ? AND answered = ? AND status = 'active' RETURNING """
    + _FIELDS
)
_ABANDON = """UPDATE practice_sets SET status = 'abandoned', finished_at = ?
              WHERE user_id = ? AND status = 'active'"""
_ABANDON_ANY = _ABANDON + " RETURNING " + _FIELDS
_ABANDON_EXAM = _ABANDON + " AND kind = 'exam' RETURNING " + _FIELDS

# An ended set -> its misses for the review queue (none but an exam's: a practice set's join
# the queue at each answer).
Ended = Callable[["StoredSet"], Sequence[ReviewItem]]


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
        picks=tuple(str(row[13]).split(",")[:-1]),
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
        ended: Ended,
        exam: tuple[str, float] | None = None,
    ) -> int:
        """A new set (any running one is abandoned, an exam's misses queued) and the learner's
        seen questions, at once. An exam (`exam` = (clock, seconds)) leaves the practice cycle
        alone (`seen` None) and stops the learner's open review or practice round: a card of
        it could show the key of a question the exam asks."""

        async def write(conn: Conn) -> int:
            await _abandon(conn, user_id, now, ended)
            if exam is not None:
                await close_open(conn, user_id, "stopped", now)
                await conn.announce(EXAMS, user_id)  # "no exam" is kept: store/no_exam.py
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

    async def running_exam(self, user_id: int) -> StoredSet | None:
        """The learner's exam still running, if any (its verdicts wait for its end)."""
        query = _COLUMNS + " WHERE user_id = ? AND kind = 'exam' AND status = 'active'"
        async with self.db.reader.execute(query, (user_id,)) as cur:
            row = await cur.fetchone()
        return _set(row) if row else None

    async def stop_exam(self, user_id: int, now: float, ended: Ended) -> StoredSet | None:
        """/stop: the learner's running exam, now abandoned with its misses queued; None when
        no exam was running (a practice set is left alone: /stop is not about it)."""

        async def write(conn: Conn) -> StoredSet | None:
            stopped = await _abandon(conn, user_id, now, ended, exams_only=True)
            return stopped[0] if stopped else None

        return await self.db.write(write)

    async def running_exams(self) -> list[StoredSet]:
        """Exams still running, whose timers start-up re-arms (JobQueue forgets them)."""
        query = _COLUMNS + " WHERE kind = 'exam' AND status = 'active' ORDER BY id"
        async with self.db.reader.execute(query) as cur:
            return [_set(row) async for row in cur]

    async def answer(
        self,
        set_id: int,
        index: int,
        marks: str,
        total: int,
        now: float,
        ended: Ended,
        picks: Sequence[str] = (),
    ) -> bool:
        """Record `marks` (one letter per question, from `index` on) and `picks` (the option id
        of each, "" for none: as many as `marks`) if the set waits for question `index`; the set
        finishes once every question has a mark (an exam's misses are queued then, in the same
        transaction)."""
        right = marks.count("r")
        picked = "".join(f"{pick}," for pick in (*picks, *[""] * (len(marks) - len(picks))))

        async def write(conn: Conn) -> bool:
            async with conn.execute(
                _ANSWER,
                (len(marks), right, marks, picked, now, len(marks), total, len(marks), total,
                 now, set_id, index),
            ) as cur:  # fmt: skip
                row = await cur.fetchone()
            if row is None:
                return False
            if (after := _set(row)).status == "finished":
                await queue(conn, ended(after))
            return True

        return await self.db.write(write)


async def _abandon(
    conn: Conn, user_id: int, now: float, ended: Ended, *, exams_only: bool = False
) -> list[StoredSet]:
    """End the learner's running set (or only a running exam) inside the caller's transaction,
    and queue an exam's misses: the exam is over, its verdicts no longer wait."""
    query = _ABANDON_EXAM if exams_only else _ABANDON_ANY
    async with conn.execute(query, (now, user_id)) as cur:
        abandoned = [_set(row) for row in await cur.fetchall()]
    for stored in abandoned:
        await queue(conn, ended(stored))
    return abandoned
