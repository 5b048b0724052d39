"""Long polling's two failures, each one line: an update python-telegram-bot cannot read is
skipped instead of stalling polling for good (`UnreadableUpdates`), and a getUpdates that fails
is retried by PTB's updater without a traceback (`polling_failed`).

PTB reads a getUpdates batch whole (`Update.de_list`); if one update fails (a field PTB requires
that the server left out: a Bot API server older than PTB, a shape PTB does not know yet), its
updater logs the failure and asks again from the same offset, gets the same batch, fails again:
no later update of any chat is ever handled, and the log fills as fast as the server answers.

Reading every update twice to catch this would cost ≈ 90 µs a tap. So the batch is checked only
when it comes back: a batch starting at the same update_id as the one before means PTB could not
read that one (it moves its offset past every batch it read). Then each update is read alone, and
one PTB refuses is replaced by its bare update_id, with one warning line: PTB moves past it, and
the handlers see an update that carries nothing (no handler takes it).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.error import Conflict, TelegramError

from bot.tg.wire.transport import HttpxRequest

log = logging.getLogger(__name__)


def polling_failed(error: TelegramError) -> None:
    """`start_polling`'s error callback: getUpdates failed (Telegram's 502, a dropped connection,
    a page that is not JSON...); PTB's updater tries again with its own back-off. PTB's default
    logs each as an ERROR with a traceback, and they are routine."""
    if isinstance(error, Conflict):  # another process polls with this token, or a webhook is set
        log.warning("getUpdates refused, another instance is reading the updates: %s", error)
    else:
        log.warning("getUpdates failed, polling again: %s", error)


def _refusal(update: dict[str, Any]) -> Exception | None:
    """Why PTB cannot read `update`, or None when it can."""
    try:
        Update.de_json(update, None)  # de_json copies each object before it changes it
    except Exception as exc:  # PTB raises TypeError, KeyError, ValueError... alike here
        return exc
    return None


class UnreadableUpdates:
    """Watches the batches getUpdates returns (in the order they come, one poller)."""

    __slots__ = ("_first",)

    def __init__(self) -> None:
        self._first: object = None  # update_id the last batch started with

    def check(self, updates: list[Any]) -> None:
        """Replace in `updates`, if it repeats the last batch, each update PTB cannot read."""
        head = updates[0] if updates else None
        first = head.get("update_id") if isinstance(head, dict) else None
        repeated = first is not None and first == self._first
        self._first = first
        if not repeated:
            return
        for index, update in enumerate(updates):
            if not isinstance(update, dict):
                continue
            refusal = _refusal(update)
            if refusal is not None:
                kind = next((key for key in update if key != "update_id"), "nothing")
                log.warning(
                    "update %s (%s): python-telegram-bot cannot read it, skipped: %s",
                    update.get("update_id"),
                    kind,
                    str(refusal)[:200],
                )
                updates[index] = {"update_id": update.get("update_id")}


class HttpxUpdatesRequest(HttpxRequest):
    """getUpdates' own request object on PTB's transport (`QUIZBOT_TRANSPORT=httpx`): an update
    PTB cannot read skipped, as quizbot's transport does (bot/tg/wire/tapped_message.py)."""

    __slots__ = ("_unreadable",)

    def __init__(self) -> None:
        super().__init__(connection_pool_size=1)
        self._unreadable = UnreadableUpdates()

    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        parsed = HttpxRequest.parse_json_payload(payload)
        updates = parsed.get("result")
        if isinstance(updates, list):
            self._unreadable.check(updates)
        return parsed
