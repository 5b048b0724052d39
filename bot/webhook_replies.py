"""A tap's popup carried back in the webhook's own response, instead of a request of its own.

The Bot API lets a webhook answer an update with one method call in its response body ("Making
requests when getting updates"): `{"method": "answerCallbackQuery", "callback_query_id": ...}`.
A tap handled while Telegram's request for it is still open so costs no answerCallbackQuery
request of its own: one HTTP exchange less per tap for the bot (about a tenth of a worker's CPU
per burst tap, BENCHMARKS.md) and one round trip less before the learner sees the verdict.

How a popup finds its response:
- the webhook door `expect`s a tap's query before handing the update on (a worker may start on
  it within the put that stores it);
- the transport (bot/tg/wire/transport.py) `offer`s every answerCallbackQuery; one whose query is
  expected is handed to that response and reported sent, as Telegram's `true` would be;
- the door waits (`respond`) for the popup, for the update's handling to end without one
  (`finished`), or for `wait` seconds at most, and answers 200 with the method or plain "ok".
  A popup offered after that goes as its own request, as before.

The popup is still offered only after its answer was committed (the use case's order), and
Telegram is told 200 only once the update is stored, as before: only that 200 waits up to `wait`
longer. Telegram reports nothing back for such a call; an answerCallbackQuery's only failure is a
query too old, which the bot ignores anyway (bot/tg/screen_send.py, `acknowledge`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import Any

import orjson
from aiohttp import web

POPUP_METHOD = "answercallbackquery"  # the Bot API's names are case-insensitive
MAX_OPEN = 1_000  # Telegram keeps at most 100 connections open to a webhook


def tapped_query(update: Mapping[str, Any]) -> str | None:
    """The id of the callback query an update's JSON carries, if any."""
    query = update.get("callback_query")
    if isinstance(query, dict) and isinstance(query_id := query.get("id"), str):
        return query_id
    return None


class WebhookReplies:
    """The taps whose webhook request is still open, by callback query id (one event loop)."""

    def __init__(self, wait: float = 0.5) -> None:
        """`wait`: how long a webhook response waits for its popup; 0 turns replies off."""
        self.wait = wait
        self._open: dict[str, asyncio.Future[bytes | None]] = {}

    @property
    def expecting(self) -> bool:
        """Whether any webhook response waits for a popup (long polling: never)."""
        return bool(self._open)

    def expect(self, query_id: str | None) -> asyncio.Future[bytes | None] | None:
        """Open a slot for the popup of `query_id` (None: no tap, replies off, a second copy of
        an update in flight, or too many open)."""
        if query_id is None or self.wait <= 0 or query_id in self._open:
            return None
        if len(self._open) >= MAX_OPEN:
            return None
        slot: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._open[query_id] = slot
        return slot

    def offer(self, method: str, parameters: Mapping[str, Any]) -> bool:
        """Hand an answerCallbackQuery to its webhook response; False: none is open for it
        (send it as a request)."""
        if not self._open or method.lower() != POPUP_METHOD:
            return False
        query_id = str(parameters.get("callback_query_id"))
        slot = self._open.get(query_id)
        if slot is None or slot.done():
            return False
        try:
            body = orjson.dumps({"method": method, **parameters})
        except TypeError:  # a value orjson cannot write: the request's own encoder can
            return False
        del self._open[query_id]
        slot.set_result(body)
        return True

    def release(self, query_id: str | None) -> None:
        """The update was handled, or not here, without a popup offered: answer Telegram now."""
        slot = self._open.pop(query_id, None) if query_id is not None else None
        if slot is not None and not slot.done():
            slot.set_result(None)

    def finished(self, update: object) -> None:
        """`release` for an update PTB read (its handling ended); any object without a
        `callback_query` is no tap."""
        if self._open and (query := getattr(update, "callback_query", None)) is not None:
            self.release(getattr(query, "id", None))

    async def respond(self, query_id: str, slot: asyncio.Future[bytes | None]) -> web.Response:
        """The webhook's 200: the popup as a method call, or "ok" once the update was handled
        without one or `wait` ran out (a popup offered later goes as its own request)."""
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(slot), self.wait)
        finally:  # from now on a popup goes as its own request
            if self._open.get(query_id) is slot:
                del self._open[query_id]
            body = slot.result() if slot.done() and not slot.cancelled() else None
            if not slot.done():
                slot.cancel()
        if body is None:
            return web.Response(text="ok")
        return web.Response(body=body, content_type="application/json")
