"""Queries for learners and their private attempts. Every write goes through the single writer."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.core.engine import Attempt, OptionOrders, Status
from bot.store.answer_batch import AnswerRow
from bot.store.conn import Conn
from bot.store.interface import Engine
from bot.store.reviews import Reminder
from bot.store.row_changes import USERS


@dataclass(frozen=True, slots=True)
class User:
    id: int
    first_name: str
    language: str | None
    telegram_language: str | None
    started_private: bool
    timezone: str | None = None  # their /timezone; None: never chosen (the bot's default)


def _user(row: aiosqlite.Row) -> User:
    return User(
        id=row["id"],
        first_name=row["first_name"],
        language=row["language"],
        telegram_language=row["telegram_language"],
        started_private=bool(row["started_private"]),
        timezone=row["timezone"],
    )


def encode_orders(orders: OptionOrders) -> str:
    return json.dumps(orders, separators=(",", ":"))


def decode_orders(text: str) -> OptionOrders:
    return tuple(tuple(int(i) for i in order) for order in json.loads(text))


CHOICES_AT_ONCE = 32  # learners whose choices one statement reads, at most
_CHOICES_OF = "SELECT id, language, timezone FROM users WHERE id IN ({})".format(
    ", ".join("?" * CHOICES_AT_ONCE)
)


class LearnerStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def user(self, user_id: int) -> User | None:
        async with self.db.reader.execute("SELECT * FROM users WHERE id = ?", (user_id,)) as cur:
            row = await cur.fetchone()
        return _user(row) if row else None

    async def choices_of(self, user_ids: Sequence[int]) -> list[tuple[str | None, str | None]]:
        """`choices` of up to `CHOICES_AT_ONCE` learners in one statement, in their order. The
        statement's text is one (the list padded with its first id), so PostgreSQL prepares it
        once per connection."""
        assert 0 < len(user_ids) <= CHOICES_AT_ONCE
        ids = list(user_ids) + [user_ids[0]] * (CHOICES_AT_ONCE - len(user_ids))
        async with self.db.reader.execute(_CHOICES_OF, ids) as cur:
            rows = await cur.fetchall()
        found = {int(row[0]): (row[1], row[2]) for row in rows}
        return [found.get(user_id, (None, None)) for user_id in user_ids]

    async def choices(self, user_id: int) -> tuple[str | None, str | None]:
        """The language and time zone a learner chose; None where never chosen (or unknown)."""
        user = await self.user(user_id)
        return (user.language, user.timezone) if user else (None, None)

    def forget_cached(self, user_id: int) -> None:
        """Nothing of a learner is kept here; `CachedLearnerChoices` keeps their choices."""

    async def touch_user(
        self,
        user_id: int,
        first_name: str,
        telegram_language: str | None,
        now: float,
        *,
        private: bool,
    ) -> User:
        """Create or refresh a user from an update; `private` marks that they wrote to the bot."""

        async def upsert(conn: Conn) -> User:
            # One trip to the writer's thread (a cursor's fetchone and close are two more).
            rows = await conn.execute_fetchall(
                """INSERT INTO users (id, first_name, telegram_language, started_private,
                                      created_at, updated_at)
                   VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT (id) DO UPDATE SET
                       first_name = excluded.first_name,
                       telegram_language = excluded.telegram_language,
                       started_private = max(users.started_private, excluded.started_private),
                       updated_at = excluded.updated_at
                   RETURNING *""",
                (user_id, first_name, telegram_language, int(private), now, now),
            )
            return _user(next(iter(rows)))

        return await self.db.write(upsert)

    async def set_language(self, user_id: int, language: str, now: float) -> None:
        async def update(conn: Conn) -> None:
            await conn.execute(
                """INSERT INTO users (id, language, created_at, updated_at) VALUES (?, ?, ?, ?)
                   ON CONFLICT (id) DO UPDATE SET language = excluded.language,
                                                  updated_at = excluded.updated_at""",
                (user_id, language, now, now),
            )
            await conn.announce(USERS, user_id)  # kept in memory: store/learner_choices.py

        await self.db.write(update)

    async def set_timezone(self, user_id: int, zone: str, now: float) -> Reminder | None:
        """Keep the learner's time zone; their reminder, if they have one, moves with it (same
        local time, new zone) in the same transaction, so it is never in the old zone alone."""

        async def update(conn: Conn) -> Reminder | None:
            await conn.execute(
                """INSERT INTO users (id, timezone, created_at, updated_at) VALUES (?, ?, ?, ?)
                   ON CONFLICT (id) DO UPDATE SET timezone = excluded.timezone,
                                                  updated_at = excluded.updated_at""",
                (user_id, zone, now, now),
            )
            await conn.announce(USERS, user_id)
            async with conn.execute(
                """UPDATE reminders SET timezone = ? WHERE user_id = ?
                   RETURNING user_id, at_time, timezone""",
                (zone, user_id),
            ) as cur:
                row = await cur.fetchone()
            return Reminder(*row) if row else None

        return await self.db.write(update)

    async def start_attempt(
        self, user_id: int, quiz_id: str, orders: OptionOrders, now: float, version: str = ""
    ) -> int:
        """Open a new private attempt, abandoning any other one the learner had running."""

        async def insert(conn: Conn) -> int:
            await conn.execute(
                """UPDATE attempts SET status = 'abandoned', finished_at = ?
                   WHERE kind = 'private' AND user_id = ? AND status = 'active'""",
                (now, user_id),
            )
            rows = await conn.execute_fetchall(  # one trip, as in touch_user
                """INSERT INTO attempts (kind, chat_id, user_id, quiz_id, option_orders, started_at,
                                        content_version)
                   VALUES ('private', ?, ?, ?, ?, ?, ?) RETURNING id""",
                (user_id, user_id, quiz_id, encode_orders(orders), now, version),
            )
            return int(next(iter(rows))[0])

        return await self.db.write(insert)

    async def attempt(self, attempt_id: int) -> Attempt | None:
        async with self.db.reader.execute(
            "SELECT * FROM attempts WHERE id = ? AND kind = 'private'", (attempt_id,)
        ) as cur:
            row = await cur.fetchone()
        return await self._load(row) if row else None

    async def active_attempt(self, user_id: int) -> Attempt | None:
        async with self.db.reader.execute(
            "SELECT * FROM attempts WHERE user_id = ? AND kind = 'private' AND status = 'active'",
            (user_id,),
        ) as cur:
            row = await cur.fetchone()
        return await self._load(row) if row else None

    async def _load(self, row: aiosqlite.Row) -> Attempt:
        orders = decode_orders(row["option_orders"])
        answers: list[int | None] = [None] * len(orders)
        selections: list[tuple[int, frozenset[str]]] = []
        async with self.db.reader.execute(
            """SELECT question_index, option_index, selected_ids FROM answers
               WHERE attempt_id = ? AND user_id = ?""",
            (row["id"], row["user_id"]),
        ) as cur:
            async for q_index, option, selected_ids in cur:
                if 0 <= q_index < len(answers):
                    answers[q_index] = option
                    if selected_ids is not None:
                        selections.append((q_index, frozenset(selected_ids.split(","))))
        return Attempt(
            id=row["id"],
            user_id=row["user_id"],
            quiz_id=row["quiz_id"],
            orders=orders,
            answers=tuple(answers),
            status=Status(row["status"]),
            version=row["content_version"] or "",
            selections=tuple(sorted(selections, key=lambda pair: pair[0])),
        )

    async def record_answer(
        self,
        attempt: Attempt,
        question_index: int,
        option_index: int,
        is_correct: bool,
        language: str,
        now: float,
        *,
        question_id: str,
        option_id: str,
        typed: tuple[str, float] | None = None,
        selected_ids: str | None = None,
        score: float | None = None,
    ) -> bool:
        """Store an answer if the attempt is still open and the question unanswered; its last
        answer finishes the attempt (a trigger, in the same statement).

        The answer records the question and option ids and the attempt's content version, so
        history stays attached to the same question when the content is reordered. A number
        question's reply comes as `typed` (the text as typed, the value read from it); a
        `multiple` question's answer records the submitted ids (`selected_ids`, 'b,c') and its
        partial credit (`score`).

        Returns False when it changed nothing (a double tap, or an attempt closed meanwhile);
        the uniqueness of (attempt, question, user) makes a duplicate impossible either way.
        """
        return await self.db.write_answer(
            AnswerRow(
                attempt.id,
                question_index,
                attempt.user_id,
                option_index,
                is_correct,
                language,
                now,
                question_id=question_id,
                option_id=option_id,
                content_version=attempt.version,
                typed_text=typed[0] if typed else None,
                typed_value=typed[1] if typed else None,
                selected_ids=selected_ids,
                score=score,
            )
        )

    async def typed_question_sent(self, attempt_id: int, message_id: int | None) -> None:
        """The message asking the attempt's open number question (its reply is the answer);
        None once it is answered."""

        async def update(conn: Conn) -> None:
            await conn.execute(
                "UPDATE attempts SET typed_message_id = ? WHERE id = ? AND kind = 'private'",
                (message_id, attempt_id),
            )

        await self.db.write(update)

    async def typed_prompt_sent(self, attempt_id: int, prompt_id: int) -> None:
        """The ForceReply prompt of the attempt's open number question (deleted once answered,
        by whichever worker takes the reply)."""

        async def update(conn: Conn) -> None:
            await conn.execute(
                "UPDATE attempts SET typed_prompt_id = ? WHERE id = ? AND kind = 'private'",
                (prompt_id, attempt_id),
            )

        await self.db.write(update)

    async def typed_prompt(self, attempt_id: int) -> tuple[int, int] | None:
        """The open number question's message and its prompt's (0 when the stored prompt is an
        earlier question's: older than the question); None when no question is open."""
        async with self.db.reader.execute(
            "SELECT typed_message_id, typed_prompt_id FROM attempts WHERE id = ?", (attempt_id,)
        ) as cur:
            row = await cur.fetchone()
        if not row or row[0] is None:
            return None
        message, prompt = int(row[0]), int(row[1] or 0)
        return message, prompt if prompt > message else 0

    async def typed_texts(self, attempt_id: int) -> dict[int, str]:
        """What was typed for the attempt's number questions, by question index."""
        async with self.db.reader.execute(
            """SELECT question_index, typed_text FROM answers
               WHERE attempt_id = ? AND typed_text IS NOT NULL""",
            (attempt_id,),
        ) as cur:
            return {int(row[0]): str(row[1]) for row in await cur.fetchall()}

    async def abandon(self, user_id: int, now: float) -> int | None:
        """Abandon the learner's running attempt; the id of the one abandoned, if any."""

        async def update(conn: Conn) -> int | None:
            rows = await conn.execute_fetchall(  # one trip (a cursor's fetchone and close: 3)
                """UPDATE attempts SET status = 'abandoned', finished_at = ?
                   WHERE kind = 'private' AND user_id = ? AND status = 'active' RETURNING id""",
                (now, user_id),
            )
            row = next(iter(rows), None)
            return int(row[0]) if row else None

        return await self.db.write(update)
