"""The update ids already acted on, kept across restarts so a re-delivered update acts once.

The adapter marks the update being handled (`handling_update`, a context variable, so every
write made while handling it knows it without being passed it). The writer records that id in
the transaction of each such write: an update whose effects are committed is known to be handled,
and one whose effects never reached the disk (killed before) is handled again when re-delivered.
Answers need no record: storing one twice is already impossible (its primary key).

The key stored (column `update_id`) is the adapter's hash of the update id AND what the update
carries (`bot/tg/repeated_updates.py`, `update_key`): a re-delivery repeats both, whereas an id used
again for a different update (a restarted emulator or sandbox; Telegram picks ids at random after a
week without updates) must not be dropped. Keys are therefore not ordered: age decides what is kept.
"""

from __future__ import annotations

import time

from bot.store.conn import Conn
from bot.store.db import HANDLED_UPDATES_MAX_AGE, current_update
from bot.store.interface import Engine


def handling_update(key: int) -> None:
    """Mark the update the current task is handling; its writes will record its key."""
    current_update.set(key)


class UpdateLog:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def recent(self, limit: int) -> list[int]:
        """The latest `limit` handled keys, oldest first (what start-up loads into memory)."""
        async with self.db.reader.execute(
            "SELECT update_id FROM handled_updates ORDER BY handled_at DESC LIMIT ?", (limit,)
        ) as cur:
            keys = [int(row[0]) async for row in cur]
        return keys[::-1]

    async def prune(self, keep: int) -> None:
        """Keep the latest `keep` keys, none older than Telegram would re-deliver."""

        async def delete(conn: Conn) -> None:
            await conn.execute(
                "DELETE FROM handled_updates WHERE handled_at < ?",
                (time.time() - HANDLED_UPDATES_MAX_AGE,),
            )
            await conn.execute(
                """DELETE FROM handled_updates WHERE handled_at < (
                       SELECT handled_at FROM handled_updates
                       ORDER BY handled_at DESC LIMIT 1 OFFSET ?)""",
                (keep - 1,),
            )

        await self.db.write(delete)
