"""Scheduled pushes of study groups: what admins typed with /schedule, restored at start-up.

Each schedule is read with its topic's name as last heard (topic_names.py), so a topic renamed
since the schedule was made is shown by its new name wherever the schedule is.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.store.conn import Conn
from bot.store.interface import Engine
from bot.store.topic_names import HEARD_NAME

# Every column, and the topic's name as last heard (NULL if never heard), of the schedules
# that run (not those stopped when the bot was removed from their group).
_SELECT = f"SELECT *, {HEARD_NAME} AS heard_name FROM schedules WHERE stopped_at IS NULL"


@dataclass(frozen=True, slots=True)
class Schedule:
    id: int
    chat_id: int
    quiz: str  # a quiz id, "next" or "random"
    days: str  # ISO weekdays, 0 = Monday: "0,2,4"
    at_time: str  # "HH:MM" in the group's time zone
    thread_id: int = 0  # the forum topic it runs in; 0: none (General, or no topics)
    # that topic's name: as last heard (topic_names), else as Telegram showed it when the
    # schedule was made ("" if unknown)
    thread_name: str = ""
    topic_gone: bool = False  # the admins were told its topic is closed or deleted


def _schedule(row: aiosqlite.Row) -> Schedule:
    return Schedule(
        row["id"],
        row["chat_id"],
        row["quiz"],
        row["days"],
        row["at_time"],
        row["thread_id"],
        row["heard_name"] or row["thread_name"],
        bool(row["topic_gone"]),
    )


class ScheduleStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    # -- schedules --------------------------------------------------------------------------

    async def add_schedule(
        self,
        chat_id: int,
        quiz: str,
        days: str,
        at_time: str,
        user_id: int | None,
        now: float,
        thread_id: int = 0,
        thread_name: str = "",
    ) -> Schedule:
        async def insert(conn: Conn) -> Schedule:
            async with conn.execute(
                f"""INSERT INTO schedules (chat_id, quiz, days, at_time, created_by, created_at,
                                           thread_id, thread_name)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                   RETURNING *, {HEARD_NAME} AS heard_name""",
                (chat_id, quiz, days, at_time, user_id, now, thread_id, thread_name),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            return _schedule(row)

        return await self.db.write(insert)

    async def schedules(self, chat_id: int | None = None) -> list[Schedule]:
        """A group's schedules in the order /schedules numbers them (every group's if None)."""
        sql: str = f"{_SELECT} ORDER BY id"
        args: tuple[int, ...] = ()
        if chat_id is not None:
            sql, args = f"{_SELECT} AND chat_id = ? ORDER BY id", (chat_id,)
        async with self.db.reader.execute(sql, args) as cur:
            return [_schedule(row) async for row in cur]

    async def schedule(self, schedule_id: int) -> Schedule | None:
        async with self.db.reader.execute(f"{_SELECT} AND id = ?", (schedule_id,)) as cur:
            row = await cur.fetchone()
        return _schedule(row) if row else None

    async def take_stopped(self, chat_id: int) -> list[Schedule]:
        """The group's schedules stopped when the bot was removed, in /schedules order, deleted
        as they are read: the admins are told of them once (the bot was added back)."""

        async def take(conn: Conn) -> list[Schedule]:
            async with conn.execute(
                f"""DELETE FROM schedules WHERE chat_id = ? AND stopped_at IS NOT NULL
                    RETURNING *, {HEARD_NAME} AS heard_name""",
                (chat_id,),
            ) as cur:
                taken = [_schedule(row) async for row in cur]
            return sorted(taken, key=lambda item: item.id)  # RETURNING keeps no order

        return await self.db.write(take)

    async def set_topic_gone(self, schedule_id: int, gone: bool) -> bool:
        """Mark (or clear) that the schedule's topic is gone; True if this call changed it, so
        that of several workers firing it exactly one tells the admins."""

        async def update(conn: Conn) -> bool:
            cur = await conn.execute(
                "UPDATE schedules SET topic_gone = ? WHERE id = ? AND topic_gone <> ?",
                (int(gone), schedule_id, int(gone)),
            )
            return cur.rowcount == 1

        return await self.db.write(update)

    async def delete_quiz_schedules(self, chat_id: int, quiz: str) -> list[int]:
        """Remove a group's schedules of one quiz (the group deleted it); their ids."""

        async def delete(conn: Conn) -> list[int]:
            async with conn.execute(
                "DELETE FROM schedules WHERE chat_id = ? AND quiz = ? RETURNING id",
                (chat_id, quiz),
            ) as cur:
                return [int(r[0]) async for r in cur]

        return await self.db.write(delete)

    async def delete_schedule(self, schedule_id: int) -> bool:
        async def delete(conn: Conn) -> bool:
            cur = await conn.execute("DELETE FROM schedules WHERE id = ?", (schedule_id,))
            return cur.rowcount == 1

        return await self.db.write(delete)
