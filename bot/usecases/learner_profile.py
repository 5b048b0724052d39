"""Who a learner is and which language to answer them in, resolved once per update.

A learner's choices (language, time zone) are read through the store in one read of their
profile. Whether they are then kept in memory is the store's business: the composition root
gives a single process `CachedLearnerChoices` (read once, then kept) and several workers the
plain `LearnerStore` (read every time); see docs/caches.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.i18n import choose_language
from bot.store import LearnerStore
from bot.store.reviews import Reminder


@dataclass(frozen=True, slots=True)
class Learner:
    """The person behind an update, with the language every reply to them uses."""

    user_id: int
    first_name: str
    telegram_language: str | None  # what their Telegram app says
    chosen: str | None  # what they picked with /language, if ever
    lang: str  # the reply language: their choice, else Telegram's, else the bot's default

    def language_in(self, default: str) -> str:
        """Their language with another fallback, e.g. a group's for a member's popup."""
        return choose_language(
            stored=self.chosen, telegram_code=self.telegram_language, default=default
        )


class Learners:
    def __init__(
        self,
        store: LearnerStore,
        *,
        default_language: str = "en",
        default_timezone: str = "UTC",
        clock: Clock = time.time,
    ) -> None:
        self.store = store
        self.default_timezone = default_timezone  # QUIZBOT_TIMEZONE, until they choose theirs
        self.default_language = default_language
        self.clock = clock

    async def resolve(
        self, user_id: int, first_name: str, telegram_language: str | None
    ) -> Learner:
        chosen = await self.chosen_language(user_id)
        lang = choose_language(
            stored=chosen, telegram_code=telegram_language, default=self.default_language
        )
        return Learner(user_id, first_name, telegram_language, chosen, lang)

    async def greet(self, learner: Learner) -> Learner:
        """Record the learner (first contact, /start); their language as the store has it."""
        await self.store.touch_user(
            learner.user_id,
            learner.first_name,
            learner.telegram_language,
            self.clock(),
            private=True,
        )
        return await self.resolve(learner.user_id, learner.first_name, learner.telegram_language)

    async def started_privately(self, user_id: int) -> bool:
        """Whether the user ever started the bot privately: only then may it write to them."""
        user = await self.store.user(user_id)
        return user is not None and user.started_private

    async def chosen_language(self, user_id: int) -> str | None:
        """The language the user picked, if any (kept in memory where the store keeps it)."""
        return (await self.store.choices(user_id))[0]

    async def zone(self, user_id: int) -> str:
        """The zone a learner's days are counted in: theirs, else the bot's default."""
        return await self.chosen_zone(user_id) or self.default_timezone

    async def chosen_zone(self, user_id: int) -> str | None:
        """The time zone the user set with /timezone, if any; kept like their language."""
        return (await self.store.choices(user_id))[1]

    async def choose_zone(self, user_id: int, zone: str) -> Reminder | None:
        """Keep a (validated) time zone; their reminder, moved with it, if they have one."""
        return await self.store.set_timezone(user_id, zone, self.clock())

    async def language(self, user_id: int, telegram_language: str | None = None) -> str:
        """The reply language of a user known only by id (a reminder, a notice): as `resolve`
        would answer them, with the Telegram language the store kept from their last update
        when none is given (a learner who never tapped the picker reads French or Wolof in
        every reply; what the bot sends on its own must not fall back to the default)."""
        chosen = await self.chosen_language(user_id)
        if chosen is None and telegram_language is None:
            user = await self.store.user(user_id)
            telegram_language = user.telegram_language if user is not None else None
        return choose_language(
            stored=chosen, telegram_code=telegram_language, default=self.default_language
        )

    def forget_cached(self, user_id: int) -> None:
        """After /forget: their language and zone choices are not kept in memory either."""
        self.store.forget_cached(user_id)

    async def choose(self, learner: Learner, lang: str) -> Learner:
        await self.store.set_language(learner.user_id, lang, self.clock())
        return Learner(learner.user_id, learner.first_name, learner.telegram_language, lang, lang)
