"""Queries for study groups: settings, the live state of group runs, answers and schedules
(what their rows decode to: group_rows.py).

Every write goes through the single writer. An answer is only inserted while its question is the
open one of an active run, in the same statement, so a tap racing the timer can never slip in
after the reveal counted the answers.
"""

from __future__ import annotations

from enum import StrEnum

from bot.core.engine import Standing
from bot.core.group_run import GroupRun
from bot.store.answer_batch import AnswerRow
from bot.store.conn import Conn
from bot.store.errors import IntegrityError
from bot.store.group_rows import SETTING_COLUMNS, GroupSettings, run_of, settings_of
from bot.store.interface import Engine
from bot.store.row_changes import GROUPS


class Stored(StrEnum):
    STORED = "stored"
    DUPLICATE = "duplicate"  # this member already answered this question
    CLOSED = "closed"  # the question is no longer open


_RUN_SELECT = """SELECT r.*, a.quiz_id, a.option_orders, a.content_version, a.thread_id
                 FROM group_runs r
                 JOIN attempts a ON a.id = r.attempt_id"""


class GroupStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    # -- settings ---------------------------------------------------------------------------

    async def group(self, chat_id: int) -> GroupSettings | None:
        async with self.db.reader.execute(
            "SELECT * FROM groups WHERE chat_id = ?", (chat_id,)
        ) as cur:
            row = await cur.fetchone()
        return settings_of(row) if row else None

    async def ensure_group(
        self, chat_id: int, title: str, language: str, seconds: int, timezone: str, now: float
    ) -> GroupSettings:
        """The group's settings, created with these defaults the first time; marks it joined."""

        async def upsert(conn: Conn) -> GroupSettings:
            async with conn.execute(
                """INSERT INTO groups (chat_id, title, language, seconds_per_question, timezone,
                                       created_at, updated_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (chat_id) DO UPDATE SET
                       title = CASE WHEN excluded.title != '' THEN excluded.title
                                    ELSE groups.title END,
                       member = 1, updated_at = excluded.updated_at
                   RETURNING *""",
                (chat_id, title, language, seconds, timezone, now, now),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            await conn.announce(GROUPS, chat_id)  # kept in memory: store/group_settings_cache.py
            return settings_of(row)

        return await self.db.write(upsert)

    async def update_group(self, chat_id: int, column: str, value: object, now: float) -> None:
        if column not in SETTING_COLUMNS:
            raise ValueError(f"not a group setting: {column}")

        async def update(conn: Conn) -> None:
            await conn.execute(
                f"UPDATE groups SET {column} = ?, updated_at = ? WHERE chat_id = ?",
                (value, now, chat_id),
            )
            await conn.announce(GROUPS, chat_id)

        await self.db.write(update)

    async def left(self, chat_id: int, now: float) -> list[int]:
        """The bot left the group: abandon its run, stop its schedules (kept to tell the admins
        when it is added back: schedules.take_stopped); their ids are returned."""

        async def update(conn: Conn) -> list[int]:
            await conn.execute(
                "UPDATE groups SET member = 0, updated_at = ? WHERE chat_id = ?", (now, chat_id)
            )
            await conn.announce(GROUPS, chat_id)
            await conn.execute(
                """UPDATE attempts SET status = 'abandoned', finished_at = ?
                   WHERE kind = 'group' AND chat_id = ? AND status = 'active'""",
                (now, chat_id),
            )
            await conn.execute(
                "UPDATE group_runs SET question_open = 0 WHERE chat_id = ?", (chat_id,)
            )
            async with conn.execute(
                """UPDATE schedules SET stopped_at = ?
                   WHERE chat_id = ? AND stopped_at IS NULL RETURNING id""",
                (now, chat_id),
            ) as cur:
                return [int(r[0]) async for r in cur]

        return await self.db.write(update)

    async def migrate(self, old_id: int, new_id: int, now: float) -> bool:
        """Move settings, runs, history and schedules of a group upgraded to a supergroup."""

        async def update(conn: Conn) -> bool:
            async with conn.execute(
                "SELECT 1 FROM moved_groups WHERE old_id = ?", (old_id,)
            ) as cur:
                already = await cur.fetchone() is not None  # the second service message
            async with conn.execute("SELECT 1 FROM groups WHERE chat_id = ?", (old_id,)) as cur:
                # A row under the old id after the move is a stray one (deleted below), never
                # one to move over the supergroup's settings.
                had_old = await cur.fetchone() is not None and not already
            if had_old:
                await conn.execute("DELETE FROM groups WHERE chat_id = ?", (new_id,))
                await conn.execute(
                    "UPDATE groups SET chat_id = ?, updated_at = ? WHERE chat_id = ?",
                    (new_id, now, old_id),
                )
                await conn.announce(GROUPS, old_id)  # its settings now under the new id
                await conn.announce(GROUPS, new_id)
            # A run started under the old id after the move (a button tapped in the old chat
            # before this process heard of it) meets the supergroup's own run in its topic:
            # one active run per topic. The supergroup's stays; the stray one, in a chat nobody
            # can write in any more, is abandoned instead of moved.
            await conn.execute(
                """UPDATE attempts SET status = 'abandoned', finished_at = ?
                   WHERE chat_id = ? AND kind = 'group' AND status = 'active'
                     AND EXISTS (SELECT 1 FROM attempts AS kept
                                 WHERE kept.chat_id = ? AND kept.kind = 'group'
                                   AND kept.status = 'active'
                                   AND kept.thread_id = attempts.thread_id)""",
                (now, old_id, new_id),
            )
            await conn.execute(
                "UPDATE attempts SET chat_id = ? WHERE chat_id = ? AND kind = 'group'",
                (new_id, old_id),
            )
            # who was seen in the old group is seen in the new one (a sighting there wins)
            await conn.execute(
                """DELETE FROM group_seen WHERE chat_id = ? AND user_id IN (
                       SELECT user_id FROM group_seen WHERE chat_id = ?)""",
                (old_id, new_id),
            )
            for table in (
                "group_runs",
                "schedules",
                "run_scores",
                "group_members",
                "uploaded_quizzes",
                "group_seen",
            ):
                await conn.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)
                )
            # Kept so that an update from the old chat is told the group moved (the old id
            # could otherwise be recorded as a group again, or a run started there).
            await conn.execute(
                """INSERT INTO moved_groups (old_id, new_id, moved_at) VALUES (?, ?, ?)
                   ON CONFLICT (old_id) DO UPDATE SET new_id = excluded.new_id""",
                (old_id, new_id, now),
            )
            # An update from the old chat seen before the move was heard left a row there.
            await conn.execute("DELETE FROM groups WHERE chat_id = ?", (old_id,))
            await conn.announce(GROUPS, old_id)
            return had_old

        return await self.db.write(update)

    async def moved_to(self, chat_id: int) -> int | None:
        """The supergroup a group became, if `chat_id` is the old chat of one."""
        async with self.db.reader.execute(
            "SELECT new_id FROM moved_groups WHERE old_id = ?", (chat_id,)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else None

    # -- runs -------------------------------------------------------------------------------

    async def start_run(
        self,
        chat_id: int,
        user_id: int | None,
        quiz_id: str,
        orders: str,
        seconds: float,
        now: float,
        version: str = "",
        typed: bool = False,
        thread_id: int = 0,
        flashcards: bool = False,
    ) -> int | None:
        """A new active run, or None when the group's topic `thread_id` already has one (the
        unique index says); `typed`: its number questions are asked (else left out);
        `flashcards`: its flashcards are shown (else left out)."""

        async def insert(conn: Conn) -> int | None:
            try:
                async with conn.execute(
                    """INSERT INTO attempts (kind, chat_id, user_id, quiz_id, option_orders,
                                             started_at, content_version, thread_id)
                       VALUES ('group', ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
                    (chat_id, user_id, quiz_id, orders, now, version, thread_id),
                ) as cur:
                    row = await cur.fetchone()
            except IntegrityError:
                return None
            assert row is not None
            await conn.execute(
                """INSERT INTO group_runs (attempt_id, chat_id, seconds, typed_answers,
                                          flashcards)
                   VALUES (?, ?, ?, ?, ?)""",
                (row[0], chat_id, seconds, int(typed), int(flashcards)),
            )
            return int(row[0])

        return await self.db.write(insert)

    async def run(self, run_id: int) -> GroupRun | None:
        async with self.db.reader.execute(
            f"{_RUN_SELECT} WHERE r.attempt_id = ? AND a.status = 'active'", (run_id,)
        ) as cur:
            row = await cur.fetchone()
        return run_of(row) if row else None

    async def active_runs(self) -> list[GroupRun]:
        async with self.db.reader.execute(f"{_RUN_SELECT} WHERE a.status = 'active'") as cur:
            return [run_of(row) async for row in cur]

    async def open_question(self, run_id: int, index: int, sent_at: float, deadline: float) -> bool:
        """Question `index` takes answers until `deadline`; `sent_at` names this opening. False
        if question `index` was already released to Telegram: it is never opened (sent) twice."""

        async def update(conn: Conn) -> bool:
            cur = await conn.execute(
                """UPDATE group_runs SET current_question = ?, question_open = 1,
                       question_message_id = NULL, question_sent_at = ?, deadline = ?,
                       question_released_at = NULL
                   WHERE attempt_id = ?
                     AND NOT (current_question = ? AND question_released_at IS NOT NULL)""",
                (index, sent_at, deadline, run_id, index),
            )
            return cur.rowcount == 1

        return await self.db.write(update)

    async def question_released(self, run_id: int, index: int, opened_at: float, at: float) -> bool:
        """The send of question `index`, opened at `opened_at`, is leaving for Telegram: from now
        on it is never sent again (bot/core/group_run.py resume_step), even if its message id is
        never recorded. False if that opening is no longer the run's (another worker took the
        run over and opened the question again): then this send must not leave."""

        async def update(conn: Conn) -> bool:
            cur = await conn.execute(
                """UPDATE group_runs SET question_released_at = coalesce(question_released_at, ?)
                   WHERE attempt_id = ? AND current_question = ? AND question_open = 1
                     AND question_sent_at = ?""",
                (at, run_id, index, opened_at),
            )
            return cur.rowcount == 1

        return await self.db.write(update)

    async def question_sent(self, run_id: int, index: int, message_id: int) -> None:
        async def update(conn: Conn) -> None:
            await conn.execute(
                """UPDATE group_runs SET question_message_id = ?
                   WHERE attempt_id = ? AND current_question = ?""",
                (message_id, run_id, index),
            )

        await self.db.write(update)

    async def close_question(self, run_id: int, index: int) -> bool:
        """Stop taking answers to question `index`; False if it was not the open one."""

        async def update(conn: Conn) -> bool:
            cur = await conn.execute(
                """UPDATE group_runs SET question_open = 0
                   WHERE attempt_id = ? AND current_question = ? AND question_open = 1""",
                (run_id, index),
            )
            return cur.rowcount == 1

        return await self.db.write(update)

    async def close_and_count(self, run_id: int, index: int) -> list[tuple[int, str | None]] | None:
        """Close question `index` and return every answer's option and, for a select-all
        question, its set of option ids ('b,c'), read in the same write transaction (None if it
        was not the open one). The shared reader connection can still hold a snapshot from
        before the last answers were committed while other reads overlap, so counting there
        could leave fresh answers out of the reveal."""

        async def update(conn: Conn) -> list[tuple[int, str | None]] | None:
            cur = await conn.execute(
                """UPDATE group_runs SET question_open = 0
                   WHERE attempt_id = ? AND current_question = ? AND question_open = 1""",
                (run_id, index),
            )
            if cur.rowcount != 1:
                return None
            async with conn.execute(
                """SELECT option_index, selected_ids FROM answers
                   WHERE attempt_id = ? AND question_index = ?""",
                (run_id, index),
            ) as chosen:
                return [(int(row[0]), row[1]) async for row in chosen]

        return await self.db.write(update)

    async def finish_run(self, run_id: int, status: str, now: float) -> bool:
        async def update(conn: Conn) -> bool:
            await conn.execute(
                "UPDATE group_runs SET question_open = 0 WHERE attempt_id = ?", (run_id,)
            )
            cur = await conn.execute(
                """UPDATE attempts SET status = ?, finished_at = ?
                   WHERE id = ? AND status = 'active'""",
                (status, now, run_id),
            )
            return cur.rowcount == 1

        return await self.db.write(update)

    async def played_quizzes(self, chat_id: int) -> list[str]:
        async with self.db.reader.execute(
            "SELECT quiz_id FROM attempts WHERE chat_id = ? AND kind = 'group' ORDER BY id",
            (chat_id,),
        ) as cur:
            return [row[0] async for row in cur]

    # -- answers ----------------------------------------------------------------------------

    async def record_answer(
        self,
        run_id: int,
        index: int,
        user_id: int,
        first_name: str,
        telegram_language: str | None,
        option_index: int,
        is_correct: bool,
        language: str,
        now: float,
        elapsed: int,
        *,
        question_id: str,
        option_id: str,
        version: str,
        typed: tuple[str, float] | None = None,
        selected_ids: str | None = None,
        score: float | None = None,
    ) -> Stored:
        """Store a member's first tap on the open question, and their name for the leaderboard.

        The answer records the question and option ids and the run's content version; a
        number question's reply, `typed`, its text and value (its option is 0 right, 1 wrong); a
        `multiple` question's answer its submitted ids and partial credit (migration 012)."""

        row = AnswerRow(
            run_id,
            index,
            user_id,
            option_index,
            is_correct,
            language,
            now,
            elapsed,
            group=True,
            name=(first_name, telegram_language),
            question_id=question_id,
            option_id=option_id,
            content_version=version,
            typed_text=typed[0] if typed else None,
            typed_value=typed[1] if typed else None,
            selected_ids=selected_ids,
            score=score,
        )
        if await self.db.write_answer(row):
            return Stored.STORED
        # Not stored (rare): a second tap, or too late. The write is committed: a read sees it.
        async with self.db.reader.execute(
            "SELECT 1 FROM answers WHERE attempt_id = ? AND question_index = ? AND user_id = ?",
            (run_id, index, user_id),
        ) as cur:
            return Stored.DUPLICATE if await cur.fetchone() else Stored.CLOSED

    async def has_answered(self, run_id: int, index: int, user_id: int) -> bool:
        async with self.db.reader.execute(
            "SELECT 1 FROM answers WHERE attempt_id = ? AND question_index = ? AND user_id = ?",
            (run_id, index, user_id),
        ) as cur:
            return await cur.fetchone() is not None

    async def chosen_options(self, run_id: int, index: int) -> list[int]:
        async with self.db.reader.execute(
            "SELECT option_index FROM answers WHERE attempt_id = ? AND question_index = ?",
            (run_id, index),
        ) as cur:
            return [int(row[0]) async for row in cur]

    async def standings(self, run_id: int) -> list[Standing]:
        async with self.db.reader.execute(
            """SELECT a.user_id, coalesce(u.first_name, '') AS name, sum(a.is_correct),
                      count(*), coalesce(sum(a.elapsed_ms), 0)
               FROM answers a LEFT JOIN users u ON u.id = a.user_id
               WHERE a.attempt_id = ? GROUP BY a.user_id, u.first_name""",
            (run_id,),
        ) as cur:
            return [
                Standing(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) async for r in cur
            ]


__all__ = ["GroupStore", "Stored"]
