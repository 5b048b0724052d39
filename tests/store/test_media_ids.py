"""Telegram file_ids of content pictures: stored per (path, hash), replaced, forgotten only
when the refused one is still the stored one. On SQLite and PostgreSQL."""

from __future__ import annotations

from bot.store import Database
from bot.store.media_ids import MediaIdStore


async def test_remember_replace_and_forget(db: Database) -> None:
    store = MediaIdStore(db)
    assert await store.file_id("checkpoints.png", "aa") is None
    await store.remember("checkpoints.png", "aa", "PHOTO1", 1.0)
    await store.remember("checkpoints.png", "bb", "PHOTO2", 2.0)  # the file changed: a new key
    assert await store.file_id("checkpoints.png", "aa") == "PHOTO1"
    assert await store.file_id("checkpoints.png", "bb") == "PHOTO2"
    await store.remember("checkpoints.png", "aa", "PHOTO3", 3.0)  # a stale one replaced
    assert await store.file_id("checkpoints.png", "aa") == "PHOTO3"
    await store.forget("checkpoints.png", "aa", "PHOTO1")  # no longer the stored one: kept
    assert await store.file_id("checkpoints.png", "aa") == "PHOTO3"
    await store.forget("checkpoints.png", "aa", "PHOTO3")
    assert await store.file_id("checkpoints.png", "aa") is None
    assert await store.file_id("checkpoints.png", "bb") == "PHOTO2"


async def test_rows_as_stored(db: Database) -> None:
    await MediaIdStore(db).remember("a/b.jpg", "cc", "PHOTO9", 1.0)
    assert await db.rows("SELECT path, sha256, file_id FROM media_file_ids") == [  # type: ignore[attr-defined]
        ("a/b.jpg", "cc", "PHOTO9")
    ]
