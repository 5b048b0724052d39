"""`CachedLearnerChoices`: a `LearnerStore` that keeps each learner's chosen language and time
zone in memory, so resolving the language of an update costs no read after first sight.

Only for a single process (SQLite, or one process on PostgreSQL): there the process is the only
writer, and every write of a choice goes through this store, which updates its copy once the write
is done; `/forget` drops it (`forget_cached`). With several workers another process may change a
choice, so the composition root (bot/compose.py) gives the use cases the plain `LearnerStore`,
which reads every time. It lives in the store because it is a store: it knows which of its writes
change which of its reads.
"""

from __future__ import annotations

from bot.store.interface import Engine
from bot.store.learners import LearnerStore, User
from bot.store.reviews import Reminder


class CachedLearnerChoices(LearnerStore):
    def __init__(self, db: Engine) -> None:
        super().__init__(db)
        # user id -> (language, time zone) they chose; None where they never chose
        self._chosen: dict[int, tuple[str | None, str | None]] = {}

    async def choices(self, user_id: int) -> tuple[str | None, str | None]:
        """Read once, then kept (this process is the only writer)."""
        if user_id not in self._chosen:
            self._chosen[user_id] = await super().choices(user_id)
        return self._chosen[user_id]

    def forget_cached(self, user_id: int) -> None:
        """After /forget: their language and zone choices are not kept in memory either."""
        self._chosen.pop(user_id, None)

    async def touch_user(
        self,
        user_id: int,
        first_name: str,
        telegram_language: str | None,
        now: float,
        *,
        private: bool,
    ) -> User:
        user = await super().touch_user(
            user_id, first_name, telegram_language, now, private=private
        )
        self._chosen[user_id] = (user.language, user.timezone)  # as the store has them
        return user

    async def set_language(self, user_id: int, language: str, now: float) -> None:
        await super().set_language(user_id, language, now)
        self._chosen[user_id] = (language, (await self.choices(user_id))[1])

    async def set_timezone(self, user_id: int, zone: str, now: float) -> Reminder | None:
        moved = await super().set_timezone(user_id, zone, now)
        self._chosen[user_id] = ((await self.choices(user_id))[0], zone)
        return moved
