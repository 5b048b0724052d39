"""Who a learner is and which language to answer them in, resolved once per update.

The process is the only writer, so a learner's language choice is read once and then kept in
memory: resolving it costs no SQLite read in the common case.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.i18n import choose_language
from bot.store import LearnerStore


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
        clock: Clock = time.time,
        shared: bool = False,
    ) -> None:
        self.store = store
        # Shared: another worker may change a learner's language, so it is read every time.
        self.shared = shared
        self.default_language = default_language
        self.clock = clock
        self._chosen: dict[int, str | None] = {}

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
        user = await self.store.touch_user(
            learner.user_id,
            learner.first_name,
            learner.telegram_language,
            self.clock(),
            private=True,
        )
        self._chosen[learner.user_id] = user.language
        return await self.resolve(learner.user_id, learner.first_name, learner.telegram_language)

    async def chosen_language(self, user_id: int) -> str | None:
        """The language the user picked, if any; read once, then kept (this is the only writer)."""
        if self.shared or user_id not in self._chosen:
            user = await self.store.user(user_id)
            self._chosen[user_id] = user.language if user else None
        return self._chosen[user_id]

    async def language(self, user_id: int, telegram_language: str | None = None) -> str:
        """The reply language of a user known only by id (a reminder, a notice)."""
        return choose_language(
            stored=await self.chosen_language(user_id),
            telegram_code=telegram_language,
            default=self.default_language,
        )

    def forget_cached(self, user_id: int) -> None:
        """After /forget: their language choice is not kept in memory either."""
        self._chosen.pop(user_id, None)

    async def choose(self, learner: Learner, lang: str) -> Learner:
        await self.store.set_language(learner.user_id, lang, self.clock())
        self._chosen[learner.user_id] = lang
        return Learner(learner.user_id, learner.first_name, learner.telegram_language, lang, lang)
