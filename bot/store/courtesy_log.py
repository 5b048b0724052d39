"""Courtesy replies the bot lately gave in each group (migration 024; rules: bot/core/courtesy.py).

Why the store and not memory: with several workers a group's next message may reach any of
them, and a cap kept per process would let each worker post its own few. A claim reads the
group's recent rows and writes the new one in one write transaction (SQLite's one writer;
PostgreSQL's SERIALIZABLE, run again if it lost a race), so two workers cannot both take the
last place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.core.courtesy import Said
from bot.store.interface import Engine

Decide = Callable[[list[Said]], Said | None]  # the rows of the group -> the row to add, or none


class CourtesyStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def claim(self, chat_id: int, since: float, decide: Decide) -> Said | None:
        """Call `decide` with the group's rows newer than `since` and store what it returns (in
        place of the member's earlier row of the same topic), in one transaction; older rows
        of the group go. What was stored, or None."""

        async def write(conn: Any) -> Said | None:
            await conn.execute(
                "DELETE FROM courtesy_replies WHERE chat_id = ? AND said_at <= ?", (chat_id, since)
            )
            async with conn.execute(
                """SELECT user_id, topic, said_at, in_group FROM courtesy_replies
                    WHERE chat_id = ? ORDER BY said_at""",
                (chat_id,),
            ) as cur:
                rows = [
                    Said(int(r[0]), str(r[1]), float(r[2]), bool(r[3]))
                    for r in await cur.fetchall()
                ]
            said = decide(rows)
            if said is None:
                return None
            await conn.execute(
                """INSERT INTO courtesy_replies (chat_id, user_id, topic, said_at, in_group)
                   VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT (chat_id, user_id, topic) DO UPDATE SET
                       said_at = excluded.said_at, in_group = excluded.in_group""",
                (chat_id, said.user_id, said.topic, said.at, int(said.in_group)),
            )
            return said

        return await self.db.write(write)
