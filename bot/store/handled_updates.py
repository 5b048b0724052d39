"""The update ids already acted on, kept across restarts so a re-delivered update acts once.

The adapter marks the update being handled (`handling_update`, a context variable, so every
write made while handling it knows it without being passed it). The writer records that id in
the transaction of each such write: an update whose effects are committed is known to be handled,
and one whose effects never reached the disk (killed before) is handled again when re-delivered.
Answers need no record: storing one twice is already impossible (its primary key).
"""

from __future__ import annotations

import aiosqlite

from bot.store.db import Database, current_update


def handling_update(update_id: int) -> None:
    """Mark the update the current task is handling; its writes will record the id."""
    current_update.set(update_id)


class UpdateLog:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def recent(self, limit: int) -> list[int]:
        """The latest `limit` handled ids, oldest first (what start-up loads into memory)."""
        async with self.db.reader.execute(
            "SELECT update_id FROM handled_updates ORDER BY update_id DESC LIMIT ?", (limit,)
        ) as cur:
            ids = [int(row[0]) async for row in cur]
        return ids[::-1]

    async def prune(self, keep: int) -> None:
        """Keep the latest `keep` ids: Telegram re-delivers only recent, unconfirmed updates."""

        async def delete(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                """DELETE FROM handled_updates WHERE update_id < (
                       SELECT update_id FROM handled_updates
                       ORDER BY update_id DESC LIMIT 1 OFFSET ?)""",
                (keep - 1,),
            )

        await self.db.write(delete)
