"""Queries behind review and practice rounds (migration 017): one open round per learner.

Every step is one guarded statement (`status = 'open' AND answered = ?`), so a double tap, a
replayed update or a second device moves a round on once; a round that /stop or a newer round
closed answers no tap again. A review answer moves its question between boxes and its round on in
the same transaction (`ReviewStore.reviewed(..., round_step=...)`), so the summary counts exactly
the answers the schedule took.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.core.practice import QuestionKey
from bot.store.conn import Conn
from bot.store.interface import Engine

REVIEW = "review"
PRACTICE = "practice"


@dataclass(frozen=True, slots=True)
class StoredRound:
    id: int
    user_id: int
    mode: str  # REVIEW or PRACTICE
    # Practice: the questions to ask, in order, from the start. Review: the cards shown so far
    # (appended as each is claimed), so a card's ⚠️ Report finds its question server-side.
    questions: tuple[QuestionKey, ...]
    total: int
    shown: int
    answered: int
    correct: int
    message_id: int | None
    status: str  # open, done or stopped
    prompt_id: int | None = None  # a number card's ForceReply prompt (if newer than message_id)
    card_shown_at: float | None = None  # when the current card was claimed: its answer's time
    # The current card's option order, its digits (migration 038): its answer is read with it.
    # None: a card claimed before it was kept, whose buttons carry their order.
    card_order: str | None = None

    @property
    def is_open(self) -> bool:
        return self.status == "open"


_SELECT = """SELECT id, user_id, mode, questions, total, shown, answered, correct, message_id,
                    status, prompt_id, card_shown_at, card_order FROM review_sessions"""
_BY_ID = _SELECT + " WHERE id = ?"
_OPEN = _SELECT + " WHERE user_id = ? AND status = 'open'"


def _round(row: aiosqlite.Row) -> StoredRound:
    questions = json.loads(row[3]) if row[3] else []
    return StoredRound(
        id=int(row[0]),
        user_id=int(row[1]),
        mode=str(row[2]),
        questions=tuple(QuestionKey.decode(k) for k in questions),
        total=int(row[4]),
        shown=int(row[5]),
        answered=int(row[6]),
        correct=int(row[7]),
        message_id=int(row[8]) if row[8] is not None else None,
        status=str(row[9]),
        prompt_id=int(row[10]) if row[10] is not None else None,
        card_shown_at=float(row[11]) if row[11] is not None else None,
        card_order=str(row[12]) if row[12] is not None else None,
    )


async def close_open(conn: Conn, user_id: int, status: str, now: float) -> None:
    await conn.execute(
        """UPDATE review_sessions SET status = ?, ended_at = ?
           WHERE user_id = ? AND status = 'open'""",
        (status, now, user_id),
    )


class RoundStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def start(
        self, user_id: int, mode: str, questions: Sequence[QuestionKey], now: float
    ) -> int:
        """A new round; the learner's open one, if any, is stopped (its cards go stale)."""

        async def write(conn: Conn) -> int:
            await close_open(conn, user_id, "stopped", now)
            async with conn.execute(
                """INSERT INTO review_sessions (user_id, mode, questions, total, started_at)
                   VALUES (?, ?, ?, ?, ?) RETURNING id""",
                (
                    user_id,
                    mode,
                    json.dumps([key.encode() for key in questions]) if questions else "",
                    len(questions),
                    now,
                ),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            return int(row[0])

        return await self.db.write(write)

    async def get(self, round_id: int) -> StoredRound | None:
        async with self.db.reader.execute(_BY_ID, (round_id,)) as cur:
            row = await cur.fetchone()
        return _round(row) if row else None

    async def open_round(self, user_id: int) -> StoredRound | None:
        async with self.db.reader.execute(_OPEN, (user_id,)) as cur:
            row = await cur.fetchone()
        return _round(row) if row else None

    async def claim_card(
        self,
        round_id: int,
        index: int,
        total: int,
        shown: QuestionKey | None = None,
        *,
        now: float | None = None,
        order: str | None = None,
    ) -> bool:
        """Card `index` is about to be shown, out of `total`; False when it was shown already (a
        second tap on Next) or the round is over. `shown`: a review card's question, kept as the
        round's card `index` (a practice round has its questions from the start). `now`: when,
        kept so the answer's time can be rated; `order`: the order its options are shown in,
        kept so its answer is read with it (both in the same UPDATE: no extra write)."""

        async def write(conn: Conn) -> bool:
            cur = await conn.execute(
                """UPDATE review_sessions
                   SET shown = ? + 1, total = ?, card_shown_at = ?, card_order = ?
                   WHERE id = ? AND status = 'open' AND shown = ? AND answered = ?""",
                (index, total, now, order, round_id, index, index),
            )
            if cur.rowcount != 1:
                return False
            if shown is not None:  # claimed in this transaction: card `index` is ours to add
                async with conn.execute(
                    "SELECT questions FROM review_sessions WHERE id = ?", (round_id,)
                ) as read:
                    row = await read.fetchone()
                keys = (json.loads(row[0]) if row and row[0] else [])[:index]
                # A round begun before cards were kept: earlier places stay unknown ("").
                keys += [""] * (index - len(keys)) + [shown.encode()]
                await conn.execute(
                    "UPDATE review_sessions SET questions = ? WHERE id = ?",
                    (json.dumps(keys), round_id),
                )
            return True

        return await self.db.write(write)

    async def replan(self, round_id: int, index: int, questions: Sequence[QuestionKey]) -> None:
        """A practice round's questions from card `index` on replaced (those that left the
        content taken out), if the round is open and card `index` not shown yet."""

        async def write(conn: Conn) -> None:
            await conn.execute(
                """UPDATE review_sessions SET questions = ?, total = ?
                   WHERE id = ? AND status = 'open' AND shown = ? AND answered = ?""",
                (
                    json.dumps([key.encode() for key in questions]),
                    len(questions),
                    round_id,
                    index,
                    index,
                ),
            )

        await self.db.write(write)

    async def prompt_sent(self, round_id: int, prompt_id: int) -> None:
        """The ForceReply prompt of the round's number card: a reply handled after a restart
        (or by another worker) deletes it."""

        async def write(conn: Conn) -> None:
            await conn.execute(
                "UPDATE review_sessions SET prompt_id = ? WHERE id = ?", (prompt_id, round_id)
            )

        await self.db.write(write)

    async def card_sent(self, round_id: int, message_id: int) -> bool:
        """The message that holds the round's open card (/stop removes its buttons). False when
        the round was stopped while the card was on its way: the learner saw it before the send
        returned, and a /stop handled meanwhile found no message to strip (the caller strips
        it). One row lock orders this with `stop`, on either engine. The newest message wins:
        a card's send may return after the message answered from it (its explanation, with
        Next) was recorded, and message ids only grow in a chat."""

        async def write(conn: Conn) -> bool:
            async with conn.execute(
                """UPDATE review_sessions
                   SET message_id = CASE WHEN message_id IS NULL OR message_id < ? THEN ?
                                         ELSE message_id END
                   WHERE id = ? AND status IN ('open', 'stopped') RETURNING status""",
                (message_id, message_id, round_id),
            ) as cur:
                row = await cur.fetchone()
            return row is None or row[0] == "open"

        return await self.db.write(write)

    async def practised(self, round_id: int, index: int, correct: bool, now: float) -> bool:
        """A practice answer to card `index`: counted once, nothing else changes."""

        async def write(conn: Conn) -> bool:
            return await step(conn, round_id, index, correct, now)

        return await self.db.write(write)

    async def finish(self, round_id: int, now: float) -> bool:
        """The round reached its end (its summary is shown once)."""
        return await self._end(round_id, "done", now)

    async def stop(self, user_id: int, now: float) -> StoredRound | None:
        """/stop: the learner's open round, now stopped; None when none was open. One statement,
        so its `message_id` is either the one `card_sent` recorded first or, when `card_sent`
        comes after, that call sees the round stopped (no read-then-write gap between them)."""

        async def write(conn: Conn) -> StoredRound | None:
            async with conn.execute(
                """UPDATE review_sessions SET status = 'stopped', ended_at = ?
                   WHERE user_id = ? AND status = 'open'
                   RETURNING id, user_id, mode, questions, total, shown, answered, correct,
                             message_id, status, prompt_id, card_shown_at, card_order""",
                (now, user_id),
            ) as cur:
                row = await cur.fetchone()
            return _round(row) if row else None

        return await self.db.write(write)

    async def _end(self, round_id: int, status: str, now: float) -> bool:
        async def write(conn: Conn) -> bool:
            cur = await conn.execute(
                """UPDATE review_sessions SET status = ?, ended_at = ?
                   WHERE id = ? AND status = 'open'""",
                (status, now, round_id),
            )
            return cur.rowcount == 1

        return await self.db.write(write)


async def step(conn: Conn, round_id: int, index: int, correct: bool, now: float) -> bool:
    """Count the answer to card `index` of an open round, inside the caller's transaction;
    False (nothing written) unless the round waits for exactly that card."""
    cur = await conn.execute(
        """UPDATE review_sessions SET answered = answered + 1, correct = correct + ?,
               answered_at = ?
           WHERE id = ? AND status = 'open' AND answered = ? AND shown > ?""",
        (int(correct), now, round_id, index, index),
    )
    return cur.rowcount == 1


async def waits_for(conn: Conn, round_id: int, index: int) -> bool:
    """Whether an open round waits for the answer to its card `index` (shown, not answered)."""
    async with conn.execute(
        """SELECT 1 FROM review_sessions
           WHERE id = ? AND status = 'open' AND answered = ? AND shown > ?""",
        (round_id, index, index),
    ) as cur:
        return await cur.fetchone() is not None
