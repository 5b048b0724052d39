"""A study group's settings and membership: language, seconds per question, shuffle, time zone,
the bot joining, leaving and following a group that became a supergroup.

Buttons and commands carry setting *keys* (`lang`, `seconds`, `shuffle`, `scoring`, `streak`,
`popup`, `typed`, `cards`);
which value each key accepts, and where it is kept, is decided here and in the store, never in a
handler.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.zones import closest_zone, known_zone
from bot.i18n import SUPPORTED_LANGUAGES, choose_language
from bot.store import GroupSettings, GroupStore

SECONDS_CHOICES = (10, 20, 30, 60)


@dataclass(frozen=True, slots=True)
class Saved:
    settings: GroupSettings


@dataclass(frozen=True, slots=True)
class Invalid:
    """A key or value no button of ours carries (forged or stale): nothing changed."""


@dataclass(frozen=True, slots=True)
class UnknownZone:
    current: str  # the time zone kept
    suggestion: str | None = None  # what the admin probably meant ('europe/paris')


class GroupMoved(Exception):
    """An update from the old chat of a group that became a supergroup (a button left there):
    nothing is recorded or started under the old id. Raised where a group's settings are first
    looked up, so every handler stops there; the adapter's error handler tells the member."""

    def __init__(self, old_chat_id: int, new_chat_id: int) -> None:
        super().__init__(f"group {old_chat_id} became supergroup {new_chat_id}")
        self.old_chat_id, self.new_chat_id = old_chat_id, new_chat_id


def _stored(key: str, value: str) -> tuple[str, str | int] | None:
    """The column and stored value for a settings key, or None when the pair is not offered."""
    if key == "lang" and value in SUPPORTED_LANGUAGES:
        return "language", value
    if key == "seconds" and value.isdigit() and int(value) in SECONDS_CHOICES:
        return "seconds_per_question", int(value)
    if key == "shuffle" and value in ("on", "off"):
        return "shuffle", int(value == "on")
    if key == "scoring" and value in ("plain", "speed"):
        return "scoring", value
    if key == "streak" and value in ("on", "off"):
        return "streak_bonus", int(value == "on")
    if key == "popup" and value in ("letter", "verdict"):
        return "popup_verdict", int(value == "verdict")
    if key == "typed" and value in ("on", "off"):
        return "typed_answers", int(value == "on")
    if key == "cards" and value in ("on", "off"):
        return "flashcards", int(value == "on")
    return None


class GroupSettingsCases:
    def __init__(
        self,
        store: GroupStore,
        *,
        default_language: str = "en",
        default_seconds: int = 30,
        default_timezone: str = "UTC",
        clock: Clock = time.time,
    ) -> None:
        self.store = store
        self.default_language = default_language
        self.default_seconds = default_seconds
        self.default_timezone = default_timezone
        self.clock = clock

    async def settings(
        self, chat_id: int, title: str = "", telegram_language: str | None = None
    ) -> GroupSettings:
        """The group's settings, recording the group on first sight (its language then follows
        the member who added the bot or spoke first). `GroupMoved` for the old chat of a group
        that became a supergroup."""
        found = await self.store.group(chat_id)
        if found is not None and found.member and (not title or title == found.title):
            return found
        if found is None and (moved := await self.store.moved_to(chat_id)) is not None:
            raise GroupMoved(chat_id, moved)
        lang = choose_language(
            stored=None, telegram_code=telegram_language, default=self.default_language
        )
        return await self.store.ensure_group(
            chat_id, title, lang, self.default_seconds, self.default_timezone, self.clock()
        )

    async def change(self, chat_id: int, key: str, value: str) -> Saved | Invalid:
        """A settings button (`set:<chat>:<key>:<value>`), already checked to be an admin's."""
        stored = _stored(key, value)
        if stored is None:
            return Invalid()
        column, new = stored
        return Saved(await self._update(chat_id, column, new))

    async def set_timezone(self, chat_id: int, name: str) -> Saved | UnknownZone:
        if not known_zone(name):
            return UnknownZone((await self.settings(chat_id)).timezone, closest_zone(name))
        return Saved(await self._update(chat_id, "timezone", name))

    async def _update(self, chat_id: int, column: str, value: object) -> GroupSettings:
        await self.store.update_group(chat_id, column, value, self.clock())
        return await self.settings(chat_id)

    async def left(self, chat_id: int) -> list[int]:
        """The bot was removed: the run is abandoned and schedules deleted (their ids returned)."""
        return await self.store.left(chat_id, self.clock())

    async def migrate(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: settings, schedules and history move with it."""
        await self.store.migrate(old_id, new_id, self.clock())
