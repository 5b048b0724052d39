"""`CachedLearnerChoices`: a `LearnerStore` that keeps each learner's chosen language and time
zone in memory, so resolving the language of an update costs no read after first sight.

Every write of a choice (`set_language`, `set_timezone`, `/forget`), through whichever store
and in whichever process, announces it in its transaction (store/row_changes.py); this process
hears its own once the write is over, and with several workers the others' through PostgreSQL
LISTEN/NOTIFY (store/pg/row_listener.py). Hearing a change drops the learner's copy, and a read
that overlapped a change is not kept, so a choice is never kept past a change heard. Where
changes of other processes cannot be heard (not listening yet, or the listening connection
dropped) nothing is kept. Bounded: at most `CHOICES_KEPT` learners, then all forgotten at once.
Learners first seen together (a group's burst of taps: every member's first tap) are read
together, one statement for those a read in flight kept waiting (`GroupCommit`), not one each.
It lives in the store because it is a store: it knows which of its reads the writes change.
"""

from __future__ import annotations

from bot.store.group_commit import GroupCommit
from bot.store.interface import Engine
from bot.store.learners import CHOICES_AT_ONCE, LearnerStore, User
from bot.store.row_changes import USERS

CHOICES_KEPT = 100_000  # learners whose choices are kept, at most (then forgotten)


class CachedLearnerChoices(LearnerStore):
    def __init__(self, db: Engine) -> None:
        super().__init__(db)
        # user id -> (language, time zone) they chose; None where they never chose
        self._chosen: dict[int, tuple[str | None, str | None]] = {}
        self._changes = db.changes
        self._changes.follow(USERS, self._drop)
        self._misses: GroupCommit[int, tuple[str | None, str | None]] = GroupCommit(
            self._read_together, max_batch=CHOICES_AT_ONCE
        )

    async def _read_together(self, user_ids: list[int]) -> list[tuple[str | None, str | None]]:
        return await self.choices_of(user_ids)

    def _drop(self, user_id: int | None) -> None:
        if user_id is None:
            self._chosen.clear()
        else:
            self._chosen.pop(user_id, None)

    def _keep(self, token: int | None, user_id: int, chosen: tuple[str | None, str | None]) -> None:
        if self._changes.keeps(token):
            if len(self._chosen) >= CHOICES_KEPT:
                self._chosen.clear()
            self._chosen[user_id] = chosen

    async def choices(self, user_id: int) -> tuple[str | None, str | None]:
        """From memory once read, until a change of theirs is heard."""
        kept = self._chosen.get(user_id)
        if kept is not None:
            return kept
        token = self._changes.token()
        chosen = await self._misses.submit(user_id)
        self._keep(token, user_id, chosen)
        return chosen

    def forget_cached(self, user_id: int) -> None:
        """After /forget: their language and zone choices are not kept in memory either."""
        self._drop(user_id)

    async def touch_user(
        self,
        user_id: int,
        first_name: str,
        telegram_language: str | None,
        now: float,
        *,
        private: bool,
    ) -> User:
        token = self._changes.token()
        user = await super().touch_user(
            user_id, first_name, telegram_language, now, private=private
        )
        self._keep(token, user_id, (user.language, user.timezone))  # as the store has them
        return user
