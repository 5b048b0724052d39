"""The formatting and buttons of a tapped message, dropped before PTB reads an update (issue 32).

Telegram sends every callback query with the whole message its keyboard sits under, formatting
entities included: a question's bold counter, code spans and links are 5 to 10 of them, and PTB
builds a frozen `MessageEntity` for each on every tap (≈ 60 µs of the ≈ 200 µs `Update.de_json`
takes for a question's tap on this machine, BENCHMARKS.md). quizbot reads a tapped message's
chat, id, date (bot/tg/repeated_updates.py's `update_key`), text, photo (a captioned question)
and whether it still has a keyboard (bot/tg/upload_handlers.py), never its entities, which describe
a text it wrote itself, nor its buttons (≈ 40 µs more: a button each, with its callback data, which
the query carries anyway). So `entities` and `caption_entities` of `callback_query.message` are
left out of the JSON PTB parses, and its keyboard, when it has one, arrives empty; on every way
updates come in (long polling, the webhook, the workers' inbox). A handler that ever needs a
tapped message's formatting or buttons must read them before this, or stop dropping them.
"""

from __future__ import annotations

from typing import Any

from bot.tg.wire.polling import UnreadableUpdates
from bot.tg.wire.transport import AiohttpRequest

DROPPED = ("entities", "caption_entities")


def without_tapped_formatting(update: Any) -> Any:
    """`update` (a decoded JSON object, changed in place and returned) without the entities
    and buttons of the message its callback query was tapped on; anything else is as it came."""
    if not isinstance(update, dict):
        return update
    query = update.get("callback_query")
    message = query.get("message") if isinstance(query, dict) else None
    if isinstance(message, dict):
        for key in DROPPED:
            message.pop(key, None)
        if isinstance(message.get("reply_markup"), dict):
            message["reply_markup"] = {"inline_keyboard": []}  # it has one: that is all we ask
    return update


class UpdatesRequest(AiohttpRequest):
    """getUpdates' own request object (quizbot's transport): the updates without the formatting
    of tapped messages, and an update PTB cannot read skipped (tg/wire/polling.py).
    Here, not in tg/wire/transport.py: the lean baseline of the benchmark runs on that transport
    and must not get quizbot's logic."""

    __slots__ = ("_unreadable",)

    def __init__(self, connection_pool_size: int = 1) -> None:
        super().__init__(connection_pool_size)
        self._unreadable = UnreadableUpdates()

    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        parsed = AiohttpRequest.parse_json_payload(payload)
        updates = parsed.get("result")
        if isinstance(updates, list):
            for update in updates:
                without_tapped_formatting(update)
            self._unreadable.check(updates)
        return parsed
