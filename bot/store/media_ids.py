"""Telegram file_ids of content pictures, by file path and content hash (migration 014).

A picture is uploaded once; later sends name it by the file_id Telegram returned. The store
only remembers: when to upload, and what to do with a refused file_id, is the sender's
(`bot/tg/wire/photos.py`).
"""

from __future__ import annotations

from bot.store.conn import Conn
from bot.store.interface import Engine


class MediaIdStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def file_id(self, path: str, sha256: str) -> str | None:
        async with self.db.reader.execute(
            "SELECT file_id FROM media_file_ids WHERE path = ? AND sha256 = ?", (path, sha256)
        ) as cur:
            row = await cur.fetchone()
        return str(row[0]) if row else None

    async def remember(self, path: str, sha256: str, file_id: str, now: float) -> None:
        """Store (or replace) the file_id of these bytes."""

        async def upsert(conn: Conn) -> None:
            await conn.execute(
                """INSERT INTO media_file_ids (path, sha256, file_id, stored_at)
                   VALUES (?, ?, ?, ?)
                   ON CONFLICT (path, sha256)
                   DO UPDATE SET file_id = excluded.file_id, stored_at = excluded.stored_at""",
                (path, sha256, file_id, now),
            )

        await self.db.write(upsert)

    async def forget(self, path: str, sha256: str, file_id: str) -> None:
        """Drop a file_id Telegram refused (only that one: another worker may have stored a
        fresh one meanwhile)."""

        async def delete(conn: Conn) -> None:
            await conn.execute(
                "DELETE FROM media_file_ids WHERE path = ? AND sha256 = ? AND file_id = ?",
                (path, sha256, file_id),
            )

        await self.db.write(delete)
