"""Quiz files sent privately, waiting for their sender to choose the group (migration 020).

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


class PendingUploadStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def add(self, token: str, row: PendingRow, *, since: float, keep: int) -> None:
        """Keep `row` under `token`, in one transaction: rows older than `since` go, and the
        sender's oldest beyond `keep - 1` make room (storage stays bounded whatever a user
        sends)."""
        args = (row.user_id, token, row.file_id, row.file_name, row.file_size, row.created_at)

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
                       (user_id, token, file_id, file_name, file_size, created_at)
                   VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT (user_id, token) DO UPDATE SET
                       file_id = excluded.file_id, file_name = excluded.file_name,
                       file_size = excluded.file_size, created_at = excluded.created_at""",
                args,
            )

        await self.db.write(insert)

    async def take(self, token: str, user_id: int, *, since: float) -> PendingRow | None:
        """The sender's file behind `token`, removed (once, whichever worker asks); None if it
        is not theirs, already taken, or older than `since`."""

        async def delete(conn: Any) -> PendingRow | None:
            async with conn.execute(
                """DELETE FROM pending_uploads WHERE user_id = ? AND token = ?
                   RETURNING file_id, file_name, file_size, created_at""",
                (user_id, token),
            ) as cur:
                found = await cur.fetchone()
            if found is None:
                return None
            size = None if found[2] is None else int(found[2])
            return PendingRow(user_id, str(found[0]), str(found[1]), size, float(found[3]))

        row = await self.db.write(delete)
        return row if row is not None and row.created_at >= since else None
