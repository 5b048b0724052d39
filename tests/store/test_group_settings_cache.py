"""`CachedGroupSettings` (issue 32): in one process (what `build_services` gives a single
process, on SQLite or PostgreSQL) a group's settings are read once and kept, and every write of
its `groups` row in this process, through whichever store, drops the copy once it is done: a
settings button, the bot leaving or found gone, a title change, a migration to a supergroup.
Several workers: tests/workers/test_row_notify.py.

A change made with plain SQL, which no store function makes, is not seen: that shows what is
kept."""

from __future__ import annotations

from typing import Any

from bot.compose import Services, ServiceSettings, build_services
from bot.content import default_content_dir
from bot.store.group_settings_cache import CachedGroupSettings
from bot.store.uploads import UploadStore
from bot.usecases.catalog_ref import CatalogRef
from tests.e2e.harness import FakeClock, shipped_catalog

CHAT, SUPERGROUP = -900, -100_900


def _one_process(db: Any) -> Services:
    settings = ServiceSettings(content_dir=default_content_dir(), clock=FakeClock())
    return build_services(settings, db, CatalogRef(shipped_catalog()))


async def _behind_its_back(db: Any, sql: str) -> None:
    async def change(conn: Any) -> None:
        await conn.execute(sql)

    await db.write(change)


async def test_settings_are_kept_and_each_change_in_the_process_is_heard(db: Any) -> None:
    services = _one_process(db)
    groups = services.group_settings
    assert isinstance(groups.store, CachedGroupSettings)
    assert (await groups.settings(CHAT, "Study", "en")).title == "Study"  # recorded: heard
    assert not (await groups.settings(CHAT)).popup_verdict  # read, and kept:
    await _behind_its_back(db, f"UPDATE groups SET popup_verdict = 1 WHERE chat_id = {CHAT}")
    assert not (await groups.settings(CHAT)).popup_verdict  # kept
    await groups.change(CHAT, "popup", "letter")  # a button: written, and heard
    assert not (await groups.settings(CHAT)).popup_verdict
    await groups.change(CHAT, "popup", "verdict")
    assert (await groups.settings(CHAT)).popup_verdict
    await groups.change(CHAT, "lang", "fr")
    assert (await groups.settings(CHAT)).language == "fr"
    assert (await groups.settings(CHAT, "Study, renamed")).title == "Study, renamed"
    assert (await groups.settings(CHAT)).title == "Study, renamed"


async def test_membership_written_by_other_stores_is_heard(db: Any) -> None:
    groups = _one_process(db).group_settings
    await groups.settings(CHAT, "Study", "en")
    assert (await groups.store.group(CHAT)).member  # type: ignore[union-attr]
    await UploadStore(db).gone(CHAT, 1.0)  # Telegram no longer knows the group
    assert not (await groups.store.group(CHAT)).member  # type: ignore[union-attr]
    await groups.settings(CHAT, "Study", "en")  # back: recorded again
    await groups.left(CHAT)
    assert not (await groups.store.group(CHAT)).member  # type: ignore[union-attr]


async def test_a_migration_to_a_supergroup_is_heard(db: Any) -> None:
    groups = _one_process(db).group_settings
    await groups.settings(CHAT, "Study", "en")
    await groups.change(CHAT, "popup", "verdict")
    assert await groups.store.group(SUPERGROUP) is None  # kept: no such group yet
    await groups.migrate(CHAT, SUPERGROUP)
    moved = await groups.store.group(SUPERGROUP)
    assert moved is not None and moved.popup_verdict
    assert await groups.store.group(CHAT) is None
