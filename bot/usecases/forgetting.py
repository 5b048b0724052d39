"""Forgetting a learner at their request: the store's rows (`bot/store/forget.py` says what is
deleted and what is kept, and why) and whatever the running bot keeps of them in memory."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable

from bot.store.forget import ForgetStore, Forgotten

log = logging.getLogger(__name__)


class Forgetting:
    def __init__(self, store: ForgetStore, in_memory: list[Callable[[int], object]]) -> None:
        self.store = store
        # Caches and timers that hold a user: each is told to drop them once the rows are gone.
        self.in_memory = in_memory

    async def forget(self, user_id: int) -> Forgotten:
        forgotten = await self.store.forget(user_id)
        await self.drop_in_memory(user_id)
        log.info("a learner was forgotten at their request (%s)", forgotten)
        return forgotten

    async def drop_in_memory(self, user_id: int) -> None:
        """What this process keeps of the user, once their rows are gone (here, or by
        `quizbot forget` beside it: bot/control.py)."""
        for drop in self.in_memory:
            dropped = drop(user_id)
            if inspect.isawaitable(dropped):  # a timer: durable ones live in the database
                await dropped
