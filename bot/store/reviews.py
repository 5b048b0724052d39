"""Queries for the review queue, its inbox of wrong answers, reminders and group-miss notices.

Every write goes through the single writer. The inbox is filled by a trigger on `answers`
(migration 003), so this module only drains it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.core.review import ReviewItem
from bot.store.conn import Conn
from bot.store.interface import Engine
from bot.store.review_sessions import step, waits_for

INBOX_BATCH = 5_000


@dataclass(frozen=True, slots=True)
class Miss:
    """A wrong answer waiting in the inbox, with what its attempt says about it."""

    attempt_id: int
    question_index: int
    user_id: int
    answered_at: float
    quiz_id: str
    kind: str
    question_id: str | None  # None or '': not known (answered before ids were recorded)


@dataclass(frozen=True, slots=True)
class Reminder:
    user_id: int
    at_time: str
    timezone: str


def _item(row: aiosqlite.Row) -> tuple[int, ReviewItem]:
    return row["id"], ReviewItem(
        row["user_id"],
        row["quiz_id"],
        row["question_id"],
        row["stability"],
        row["difficulty"],
        row["due_at"],
        row["last_seen_at"],
    )


async def queue(conn: Conn, items: Sequence[ReviewItem], rating: int = 1) -> None:
    """Queue missed questions as FSRS's state after Again (a miss of a queued question starts
    it over, as a new card), inside the caller's transaction (the inbox's drain, or the write
    that ends an exam), and log each as an Again rating. A miss older than what the queue last
    saw of that question (a review answered since) changes nothing in the queue: draining late
    must not undo a review. A flashcard rated in a quiz is queued the same way with the
    learner's own `rating` (1 Again .. 4 Easy) and FSRS's state after it."""
    if not items:
        return
    await conn.executemany(
        """INSERT INTO review_items (user_id, quiz_id, question_id, stability, difficulty,
                                     due_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (user_id, quiz_id, question_id) DO UPDATE SET
               stability = excluded.stability, difficulty = excluded.difficulty,
               due_at = excluded.due_at, last_seen_at = excluded.last_seen_at
           WHERE excluded.last_seen_at >= review_items.last_seen_at""",
        [
            (i.user_id, i.quiz_id, i.question_id, i.stability, i.difficulty, i.due_at,
             i.last_seen_at)
            for i in items
        ],
    )  # fmt: skip
    await conn.executemany(
        """INSERT INTO review_ratings (user_id, quiz_id, question_id, rating, reviewed_at)
           VALUES (?, ?, ?, ?, ?)""",
        [(i.user_id, i.quiz_id, i.question_id, rating, i.last_seen_at) for i in items],
    )


@dataclass(frozen=True, slots=True)
class Rated:
    """One logged rating, as the optimiser reads them."""

    user_id: int
    quiz_id: str
    question_id: str
    rating: int
    elapsed_ms: int | None
    reviewed_at: float


class ReviewStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    # -- the inbox ----------------------------------------------------------------------------

    async def pending_misses(self, limit: int = INBOX_BATCH) -> list[Miss]:
        """A batch of the inbox in key order (no sort: the inbox can hold a backfilled history)."""
        async with self.db.reader.execute(
            """SELECT i.attempt_id, i.question_index, i.user_id, i.answered_at, a.quiz_id, a.kind,
                      i.question_id
               FROM review_inbox i JOIN attempts a ON a.id = i.attempt_id
               LIMIT ?""",
            (limit,),
        ) as cur:
            return [Miss(*row) for row in await cur.fetchall()]

    async def ingest(self, items: Sequence[ReviewItem], done: Sequence[Miss]) -> None:
        """Queue missed questions (Again) and empty those inbox rows, in one transaction.

        A miss older than what the queue last saw of that question (a review answered since)
        changes nothing: draining late must not undo a review.
        """

        async def write(conn: Conn) -> None:
            await queue(conn, items)
            await conn.executemany(
                """DELETE FROM review_inbox
                   WHERE attempt_id = ? AND question_index = ? AND user_id = ?""",
                [(m.attempt_id, m.question_index, m.user_id) for m in done],
            )

        await self.db.write(write)

    async def rated(self, item: ReviewItem, rating: int) -> None:
        """Queue (or move) a flashcard the learner rated in a quiz, logging their rating."""

        async def write(conn: Conn) -> None:
            await queue(conn, [item], rating)

        await self.db.write(write)

    async def find(self, user_id: int, quiz_id: str, question_id: str) -> ReviewItem | None:
        """The learner's queue item for one question, if queued."""
        async with self.db.reader.execute(
            """SELECT * FROM review_items
               WHERE user_id = ? AND quiz_id = ? AND question_id = ?""",
            (user_id, quiz_id, question_id),
        ) as cur:
            row = await cur.fetchone()
        return _item(row)[1] if row else None

    # -- the queue ----------------------------------------------------------------------------

    async def next_due(self, user_id: int, now: float) -> tuple[int, ReviewItem] | None:
        async with self.db.reader.execute(
            """SELECT * FROM review_items WHERE user_id = ? AND due_at <= ?
               ORDER BY due_at, id LIMIT 1""",
            (user_id, now),
        ) as cur:
            row = await cur.fetchone()
        return _item(row) if row else None

    async def due_count(self, user_id: int, now: float) -> int:
        async with self.db.reader.execute(
            "SELECT count(*) FROM review_items WHERE user_id = ? AND due_at <= ?", (user_id, now)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def queue_size(self, user_id: int) -> int:
        async with self.db.reader.execute(
            "SELECT count(*) FROM review_items WHERE user_id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def next_due_at(self, user_id: int) -> float | None:
        async with self.db.reader.execute(
            "SELECT min(due_at) FROM review_items WHERE user_id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        return float(row[0]) if row and row[0] is not None else None

    async def not_due(self, user_id: int, now: float, limit: int) -> list[ReviewItem]:
        """Questions in the learner's queue that are not due yet, the least known first (lowest
        FSRS stability, then the soonest due): what a practice round asks."""
        async with self.db.reader.execute(
            """SELECT * FROM review_items WHERE user_id = ? AND due_at > ?
               ORDER BY stability, due_at, id LIMIT ?""",
            (user_id, now, limit),
        ) as cur:
            return [_item(row)[1] for row in await cur.fetchall()]

    async def item(self, item_id: int) -> ReviewItem | None:
        async with self.db.reader.execute(
            "SELECT * FROM review_items WHERE id = ?", (item_id,)
        ) as cur:
            row = await cur.fetchone()
        return _item(row)[1] if row else None

    async def items(self, user_id: int) -> list[ReviewItem]:
        async with self.db.reader.execute(
            "SELECT * FROM review_items WHERE user_id = ? ORDER BY due_at, id", (user_id,)
        ) as cur:
            return [_item(row)[1] for row in await cur.fetchall()]

    async def reviewed(
        self,
        item_id: int,
        before: ReviewItem,
        after: ReviewItem,
        correct: bool,
        now: float,
        *,
        rating: int,
        elapsed_ms: int | None = None,
        option_id: str = "",
        version: str = "",
        round_step: tuple[int, int] | None = None,
    ) -> bool:
        """Apply a review answer if the item is still as it was served (due, same last review);
        the log keeps the option chosen, by id, and the content version it was shown from, and
        the rating log the FSRS rating and the time from card to tap. With `round_step` (round
        id, card index) the answer also moves that review round on, in the same transaction, if
        the round still waits for that card.

        False when a double tap or a second device got there first: nothing changes.
        """

        async def write(conn: Conn) -> bool:
            if round_step is not None and not await waits_for(conn, *round_step):
                return False
            cur = await conn.execute(
                """UPDATE review_items SET stability = ?, difficulty = ?, due_at = ?,
                                           last_seen_at = ?
                   WHERE id = ? AND last_seen_at = ? AND due_at = ? AND due_at <= ?""",
                (
                    after.stability,
                    after.difficulty,
                    after.due_at,
                    after.last_seen_at,
                    item_id,
                    before.last_seen_at,
                    before.due_at,
                    now,
                ),
            )
            if cur.rowcount != 1:
                return False
            if round_step is not None:
                await step(conn, *round_step, correct, now)
            key = (before.user_id, before.quiz_id, before.question_id)
            await conn.execute(
                """INSERT INTO review_log (user_id, quiz_id, question_id, is_correct,
                                           answered_at, option_id, content_version)
                   VALUES (?, ?, ?, ?, ?, ?, ?)""",
                (*key, int(correct), now, option_id, version),
            )
            await conn.execute(
                """INSERT INTO review_ratings (user_id, quiz_id, question_id, rating,
                                               elapsed_ms, reviewed_at)
                   VALUES (?, ?, ?, ?, ?, ?)""",
                (*key, rating, elapsed_ms, now),
            )
            return True

        return await self.db.write(write)

    async def answer_times(self, quiz_id: str, question_id: str, limit: int = 101) -> list[int]:
        """The latest timed review answers to a question, any learner (ms): its median decides
        Hard and Easy. One indexed read of at most `limit` rows."""
        async with self.db.reader.execute(
            """SELECT elapsed_ms FROM review_ratings
               WHERE quiz_id = ? AND question_id = ? AND elapsed_ms IS NOT NULL
               ORDER BY id DESC LIMIT ?""",
            (quiz_id, question_id, limit),
        ) as cur:
            return [int(row[0]) for row in await cur.fetchall()]

    # -- FSRS's parameters and their evidence -------------------------------------------------

    async def rating_count(self) -> int:
        async with self.db.reader.execute("SELECT count(*) FROM review_ratings") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def ratings(self) -> list[Rated]:
        """Every logged rating, card by card, in time order: what the optimiser fits."""
        async with self.db.reader.execute(
            """SELECT user_id, quiz_id, question_id, rating, elapsed_ms, reviewed_at
               FROM review_ratings ORDER BY user_id, quiz_id, question_id, reviewed_at, id"""
        ) as cur:
            return [Rated(*row) for row in await cur.fetchall()]

    async def parameters(self) -> tuple[float, ...] | None:
        """The parameters `quizbot review optimize` stored; None: the package's defaults."""
        async with self.db.reader.execute(
            "SELECT parameters FROM fsrs_parameters WHERE id = 1"
        ) as cur:
            row = await cur.fetchone()
        return tuple(float(p) for p in json.loads(row[0])) if row else None

    async def set_parameters(self, parameters: Sequence[float], reviews: int, now: float) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute(
                """INSERT INTO fsrs_parameters (id, parameters, reviews, optimized_at)
                   VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET
                   parameters = excluded.parameters, reviews = excluded.reviews,
                   optimized_at = excluded.optimized_at""",
                (json.dumps([float(p) for p in parameters]), reviews, now),
            )

        await self.db.write(write)

    async def drop(self, item_id: int) -> None:
        """Forget an item whose question left the content."""

        async def write(conn: Conn) -> None:
            await conn.execute("DELETE FROM review_items WHERE id = ?", (item_id,))

        await self.db.write(write)

    # -- group misses -------------------------------------------------------------------------

    async def run_misses(self, attempt_id: int) -> dict[int, int]:
        """Members who missed questions in a group run and started the bot privately, not yet
        told: user id -> number of questions missed (every kind joins the review queue; a
        partly right select-all answer counts as missed)."""
        async with self.db.reader.execute(
            """SELECT an.user_id, count(*) FROM answers an
               JOIN users u ON u.id = an.user_id AND u.started_private = 1
               WHERE an.attempt_id = ? AND an.is_correct = 0 AND NOT EXISTS (
                   SELECT 1 FROM review_notices n
                   WHERE n.attempt_id = an.attempt_id AND n.user_id = an.user_id)
               GROUP BY an.user_id""",
            (attempt_id,),
        ) as cur:
            return {int(user): int(count) for user, count in await cur.fetchall()}

    async def mark_notified(self, attempt_id: int, user_id: int, now: float) -> bool:
        """Claim the right to tell this member about this run; False if it was already used."""

        async def write(conn: Conn) -> bool:
            cur = await conn.execute(
                """INSERT OR IGNORE INTO review_notices (attempt_id, user_id, sent_at)
                   VALUES (?, ?, ?)""",
                (attempt_id, user_id, now),
            )
            return cur.rowcount == 1

        return await self.db.write(write)

    # -- reminders ----------------------------------------------------------------------------

    async def set_reminder(self, user_id: int, at_time: str, timezone: str, now: float) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute(
                """INSERT INTO reminders (user_id, at_time, timezone, created_at)
                   VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET
                   at_time = excluded.at_time, timezone = excluded.timezone""",
                (user_id, at_time, timezone, now),
            )

        await self.db.write(write)

    async def clear_reminder(self, user_id: int) -> bool:
        async def write(conn: Conn) -> bool:
            cur = await conn.execute("DELETE FROM reminders WHERE user_id = ?", (user_id,))
            return cur.rowcount == 1

        return await self.db.write(write)

    async def reminders(self, user_id: int | None = None) -> list[Reminder]:
        sql = "SELECT user_id, at_time, timezone FROM reminders"
        args: tuple[int, ...] = ()
        if user_id is not None:
            sql, args = sql + " WHERE user_id = ?", (user_id,)
        async with self.db.reader.execute(sql, args) as cur:
            return [Reminder(*row) for row in await cur.fetchall()]
