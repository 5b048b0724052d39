"""The repeated-update guard (`RepeatedUpdates.drop_repeated`, a part of `QuizBot`, first of
every handler: group -2 in handler_order.py): Telegram re-sends recent updates (a poller killed
before confirming, a webhook retry), and each must act once.

An update is known by its key (`update_key`: its id and what it carries), remembered in memory
for the last SEEN_UPDATES updates; the keys whose writes were committed before a restart are
read back from the store at start-up (bot/store/handled_updates.py).
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict

from telegram import Update
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot.observability import metrics
from bot.store.handled_updates import UpdateLog, handling_update
from bot.store.interface import Engine

log = logging.getLogger(__name__)
SEEN_UPDATES = 10_000  # update ids remembered to drop repeats; Telegram re-sends recent ones


def update_key(update: Update) -> int:
    """The update's id and what it carries, hashed to 64 bits: a re-delivery repeats both, an id
    reused for another update (a restarted emulator; Telegram's random ids after a week without
    updates) does not."""
    parts = [str(update.update_id)]
    if (query := update.callback_query) is not None:
        parts.append(f"q{query.id}")
        if query.message is not None:
            parts.append(f"{query.message.chat.id}:{query.message.message_id}")
            parts.append(str(query.message.date.timestamp()))
    elif (message := update.effective_message) is not None:
        parts.append(f"m{message.chat_id}:{message.message_id}:{message.date.timestamp()}")
    elif (member := update.my_chat_member or update.chat_member) is not None:
        parts.append(f"c{member.chat.id}:{member.date.timestamp()}")
    digest = hashlib.blake2b("|".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


# What an update carries, the commonest first: a tap costs one attribute read.
_UPDATE_KINDS = (
    "callback_query", "message", "edited_message", "chat_member", "my_chat_member",
    "inline_query", "chosen_inline_result", "poll_answer", "poll", "channel_post",
    "edited_channel_post", "chat_join_request", "message_reaction", "message_reaction_count",
    "chat_boost", "removed_chat_boost", "pre_checkout_query", "shipping_query",
    "business_connection", "business_message", "edited_business_message",
    "deleted_business_messages", "purchased_paid_media",
)  # fmt: skip


def update_kind(update: Update) -> str:
    """The update's kind as Telegram names its field ("other" for one PTB knows no name for)."""
    for kind in _UPDATE_KINDS:
        if getattr(update, kind, None) is not None:
            return kind
    return "other"


class RepeatedUpdates:
    """Drops an update seen before; `QuizBot` (bot/tg/app.py) sets what is read here."""

    db: Engine
    _seen_updates: OrderedDict[int, None]

    async def drop_repeated(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Stop an update already seen. No await before the check: concurrent copies of one
        update cannot both pass. Keys whose writes were committed before a restart are loaded at
        start-up (`_load_handled_updates`), so a re-delivered deep link does not act twice."""
        metrics.update_received()  # if no earlier seam stamped it (bot/tg/wire/update_order.py)
        key = update_key(update)
        if key in self._seen_updates:
            log.info("update %d delivered again: ignored", update.update_id)
            metrics.UPDATES_REPEATED.inc()
            raise ApplicationHandlerStop
        metrics.count_update(update_kind(update))
        self._seen_updates[key] = None
        if len(self._seen_updates) > SEEN_UPDATES:
            self._seen_updates.popitem(last=False)
        handling_update(key)  # its writes record it: durable across a restart

    async def _load_handled_updates(self) -> None:
        """The ids handled before a restart (no DB read per update: the check stays in memory)."""
        log_ = UpdateLog(self.db)
        await log_.prune(SEEN_UPDATES)
        for update_id in await log_.recent(SEEN_UPDATES):
            self._seen_updates[update_id] = None
