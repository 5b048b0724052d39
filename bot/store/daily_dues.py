"""When each of one process's daily timers is due next, by which rule (migration 035).

PTB's JobQueue keeps its jobs in memory, and start-up arms every schedule and reminder again
for its next time: without a record, an occurrence that came due while the bot was down (a
restart at 09:00, the group's 09:00 quiz) was lost without a trace. The timers keep here the
moment each daily timer waits for, written when it is armed and before each firing; at the
next start a kept moment already past, under the same rule, is an occurrence missed
(bot/tg/wire/timer_backends.py plays it late, within `MISSED_PLAYS_WITHIN`). Several workers
need none of this: their timers are rows already (bot/store/pg/timers.py).

A learner's reminder is keyed by their user id: /forget deletes its row (bot/store/forget.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.conn import Conn
from bot.store.interface import Engine


@dataclass(frozen=True, slots=True)
class DailyDue:
    due_at: float
    rule: str  # the timer's rule as its timers wrote it: a changed rule is no missed occurrence


class DailyDueStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def due(self, kind: str, ident: int) -> DailyDue | None:
        async with self.db.reader.execute(
            "SELECT due_at, rule FROM daily_dues WHERE kind = ? AND ident = ?", (kind, ident)
        ) as cur:
            row = await cur.fetchone()
        return DailyDue(float(row[0]), str(row[1])) if row else None

    async def keep(self, kind: str, ident: int, due_at: float, rule: str) -> None:
        async def upsert(conn: Conn) -> None:
            await conn.execute(
                """INSERT INTO daily_dues (kind, ident, due_at, rule) VALUES (?, ?, ?, ?)
                   ON CONFLICT (kind, ident) DO UPDATE SET due_at = excluded.due_at,
                                                          rule = excluded.rule""",
                (kind, ident, due_at, rule),
            )

        await self.db.write(upsert)

    async def drop(self, kind: str, ident: int) -> None:
        async def delete(conn: Conn) -> None:
            await conn.execute("DELETE FROM daily_dues WHERE kind = ? AND ident = ?", (kind, ident))

        await self.db.write(delete)
