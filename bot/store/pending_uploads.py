"""Quiz files waiting for their sender: to choose the group (a private upload, migration 020),
or to confirm that the file replaces a quiz of the group (`chat_id` set, migration 023).

Why the store and not memory: with several workers the tap on a group button may reach a
worker other than the one that got the file, and a restart between the two must not lose it
(docs/caches.md). Uploads are rare, so every file and tap is one write. Only Telegram's file_id
is kept, never the bytes. The caller decides the lifetime and how many files a user keeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.store.interface import Engine


@dataclass(frozen=True, slots=True)
class PendingRow:
    user_id: int
    file_id: str
    file_name: str
    file_size: int | None
    created_at: float
    chat_id: int | None = None  # the group, when the file waits for a replacement's confirmation


class PendingUploadStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def add(self, token: str, row: PendingRow, *, since: float, keep: int) -> None:
        """Keep `row` under `token`, in one transaction: rows older than `since` go, and the
        sender's oldest beyond `keep - 1` make room (storage stays bounded whatever a user
        sends)."""
        args = (row.user_id, token, row.file_id, row.file_name, row.file_size, row.created_at,
                row.chat_id)  # fmt: skip

        async def insert(conn: Any) -> None:
            await conn.execute("DELETE FROM pending_uploads WHERE created_at < ?", (since,))
            await conn.execute(
                """DELETE FROM pending_uploads WHERE user_id = ? AND token NOT IN (
                       SELECT token FROM pending_uploads WHERE user_id = ?
                       ORDER BY created_at DESC, token LIMIT ?)""",
                (row.user_id, row.user_id, max(0, keep - 1)),
            )
            await conn.execute(
                """INSERT INTO pending_uploads
                       (user_id, token, file_id, file_name, file_size, created_at, chat_id)
                   VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (user_id, token) DO UPDATE SET
                       file_id = excluded.file_id, file_name = excluded.file_name,
                       file_size = excluded.file_size, created_at = excluded.created_at,
                       chat_id = excluded.chat_id""",
                args,
            )

        await self.db.write(insert)

    async def take(
        self, token: str, user_id: int, *, since: float, chat_id: int | None = None
    ) -> PendingRow | None:
        """The sender's file behind `token` for `chat_id` (None: a file still without a group),
        removed (once, whichever worker asks); None if it is not theirs, is for another chat,
        already taken, or older than `since`."""

        async def delete(conn: Any) -> PendingRow | None:
            async with conn.execute(
                """DELETE FROM pending_uploads
                    WHERE user_id = ? AND token = ? AND coalesce(chat_id, 0) = ?
                   RETURNING file_id, file_name, file_size, created_at""",
                (user_id, token, chat_id or 0),  # chat ids are never 0
            ) as cur:
                found = await cur.fetchone()
            if found is None:
                return None
            size = None if found[2] is None else int(found[2])
            return PendingRow(user_id, str(found[0]), str(found[1]), size, float(found[3]), chat_id)

        row = await self.db.write(delete)
        return row if row is not None and row.created_at >= since else None

    async def waiting(self, token: str, chat_id: int, *, since: float) -> bool:
        """Whether someone's file waits under `token` for `chat_id`: a tap by another admin on
        the confirmation buttons is told whose choice it is, not that they expired."""
        async with self.db.reader.execute(
            """SELECT 1 FROM pending_uploads
                WHERE token = ? AND chat_id = ? AND created_at >= ?""",
            (token, chat_id, since),
        ) as cur:
            return await cur.fetchone() is not None
