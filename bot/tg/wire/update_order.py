"""Per-chat order for concurrent updates: PTB's `BaseUpdateProcessor`, keyed by chat.

`concurrent_updates(N)` alone lets two updates of one chat run at once and finish out of order: a
supergroup's migration and the /push right after it (the /push then finds no quiz), or a fast
/stop racing the send of the card it should close. Here updates of one ordering key (one chat,
else, for updates without a chat such as inline queries and poll answers, one user: the rule is
bot/ordering.py, the workers' inbox's too) run strictly one after the other in the order PTB
hands them over, while updates of other chats (and taps of different members of one group)
keep running side by side, at most `running` at once.

Why two bounds: PTB takes its own semaphore *before* `do_process_update`, so an update waiting
for its chat's turn would hold one of PTB's slots. With PTB's bound at `running`, one chat's
burst of `running` updates would fill every slot while only one of them could run, and every
other chat would wait. So PTB's semaphore only admits (`admitted`, far above `running`: an
admitted update is just the task PTB has already created for it), and our own semaphore of
`running` slots is taken once it is the update's turn in its chat. A chat's backlog therefore
holds one running slot; other chats starve only if one chat queues more than `admitted` updates
at once. Several workers (bot/cli/worker.py) order per chat through their PostgreSQL
inbox and do not use this.

Memory: one `asyncio.Event` per key with an update admitted, removed when its last update ends.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.observability import metrics
from bot.ordering import CHAT_FIELDS, ordering_key

ADMITTED = 4096  # updates PTB lets in at once (waiting for their chat's turn or running)


def order_key(update: object) -> Hashable | None:
    """What must not race (bot/ordering.py, where the rule and its why are, shared with the
    workers' inbox), read from PTB's `Update`; None: nothing to keep it in order with."""
    if not isinstance(update, Update):
        return None
    query = update.callback_query
    if query is not None:
        chat = query.message.chat.id if query.message is not None else None
        return ordering_key(tapped=True, chat=chat, user=query.from_user.id)
    for field in CHAT_FIELDS:
        carrier = getattr(update, field, None)
        if carrier is not None:
            return ordering_key(tapped=False, chat=carrier.chat.id, user=None)
    user = update.effective_user
    return ordering_key(tapped=False, chat=None, user=user.id if user is not None else None)


class PerChatUpdateProcessor(BaseUpdateProcessor):
    """Up to `running` updates at once; one chat's (or user's) updates in arrival order."""

    def __init__(
        self,
        running: int,
        admitted: int = ADMITTED,
        *,
        finished: Callable[[object], None] = lambda update: None,
    ) -> None:
        """`finished(update)`: its handling ended (the webhook's response may stop waiting for
        its popup: bot/webhook_replies.py)."""
        super().__init__(max(running, admitted))
        self.finished = finished
        self.running = running
        self._slots: asyncio.Semaphore | None = None
        # key -> set when the latest update admitted for that key has finished.
        self._tails: dict[Hashable, asyncio.Event] = {}
        self.pending = 0  # updates handed over and not finished (/metrics: quizbot_inbox_updates)

    @property
    def waiting_keys(self) -> int:
        """Chats (or users) with an update admitted; 0 when idle (memory stays bounded)."""
        return len(self._tails)

    async def initialize(self) -> None:
        self._slots = asyncio.Semaphore(self.running)  # bound to the loop that runs updates

    async def shutdown(self) -> None:
        """Nothing to free: the keys go away as their updates end."""

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        metrics.update_received()  # its wait for its chat's turn counts toward the popup
        self.pending += 1
        try:
            await self._in_turn(update, coroutine)
        finally:
            self.pending -= 1
            self.finished(update)

    async def _in_turn(self, update: object, coroutine: Awaitable[Any]) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.running)
        key = order_key(update)
        if key is None:
            async with self._slots:
                await coroutine
            return
        # No await between reading the tail and replacing it: the chain follows call order.
        previous = self._tails.get(key)
        done = asyncio.Event()
        self._tails[key] = done
        started = False
        try:
            if previous is not None:
                await previous.wait()
            async with self._slots:
                started = True
                await coroutine
        finally:
            done.set()  # the next update of this chat may go, even if this one failed
            if self._tails.get(key) is done:
                del self._tails[key]
            if not started and inspect.iscoroutine(coroutine):
                coroutine.close()  # cancelled while waiting: never awaited, no warning
