"""The single-process webhook: our own aiohttp server feeding PTB's update queue (PTB's
documented custom-webhook pattern: `application.update_queue.put(Update.de_json(...))`).

PTB's built-in server (tornado) reads a whole body before it looks at the secret (a stranger's
60 MB were buffered, three at once +240 MB), reads up to 100 MB, and logs a malformed body
with the secret at CRITICAL with its traceback. The workers' front had none of this; both now
pass through the same door (bot/webhook_gate.py).
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from telegram import Bot, TelegramObject, Update
from telegram.ext import Application

from bot.tg.wire.tapped_message import without_tapped_formatting
from bot.webhook_gate import NotAnUpdate, WebhookGate, serve
from bot.webhook_replies import WebhookReplies


def read_update(update: dict[str, Any], bot: Bot) -> Update:
    """PTB's reading of a webhook body, or `NotAnUpdate` (400, one short line). Any exception:
    the body came with the secret but a shape PTB's classes cannot take (`"message": "hi"`);
    PTB's own webhook catches every exception here too. PTB reads a missing field as None, even
    a required one (`"chat_member": {}` became a change of no chat, which handlers then failed
    on), so every object read must also hold the fields its class requires."""
    try:
        read = Update.de_json(without_tapped_formatting(update), bot)
    except Exception as exc:
        raise NotAnUpdate(f"not a Telegram update ({type(exc).__name__})") from exc
    if (missing := _missing(read)) is not None:
        raise NotAnUpdate(f"a {missing} without its required fields")
    return read


@dataclass(frozen=True, slots=True)
class _Fields:
    """A class's fields: those it requires, and one C-level getter of them all."""

    names: tuple[str, ...]
    required: tuple[str, ...]
    values: Callable[[object], tuple[object, ...]]


_FIELDS: dict[type, _Fields] = {}


def _fields(cls: type[TelegramObject]) -> _Fields:
    """From the class's public signature, kept per class (a few dozen classes at most). Every
    value is read at once by `operator.attrgetter` (a Message has about 80 fields, nearly all
    None): a third of the time a loop of `getattr`s took (issue 32)."""
    if cls not in _FIELDS:
        params = [
            p
            for p in inspect.signature(cls.__init__).parameters.values()
            if p.name not in ("self", "api_kwargs") and p.kind is not p.VAR_KEYWORD
        ]
        names = [p.name for p in params]
        getter = operator.attrgetter(*names) if names else (lambda obj: ())
        _FIELDS[cls] = _Fields(
            tuple(names),
            tuple(p.name for p in params if p.default is p.empty),
            getter if len(names) != 1 else (lambda obj: (getter(obj),)),
        )
    return _FIELDS[cls]


def _missing(obj: TelegramObject) -> str | None:
    """The name of the first object (depth first) lacking a required field, or None."""
    fields = _fields(type(obj))
    for name in fields.required:
        if getattr(obj, name, None) is None:
            return type(obj).__name__
    try:
        values = fields.values(obj)
    except AttributeError:  # a parameter not kept under its own name: one at a time
        values = tuple(getattr(obj, name, None) for name in fields.names)
    for value in values:
        if value is None:
            continue
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, TelegramObject) and (missing := _missing(item)) is not None:
                return missing
    return None


class WebhookServer:
    """Serves the webhook on host:port; an update read is queued for PTB's handlers."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        secret: str,
        replies: WebhookReplies | None = None,
    ) -> None:
        """`replies`: a tap's popup rides on its webhook response (bot/webhook_replies.py)."""
        self.app, self.replies = app, replies or WebhookReplies(0)
        self.gate = WebhookGate(secret, self.deliver)
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> None:
        self._runner = await serve(self.gate.app(), host, port)

    async def stop(self) -> None:
        """Stop taking updates (those already queued are handled by PTB's `stop`)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def deliver(self, update_id: int, update: dict[str, Any]) -> web.Response:
        read = read_update(update, self.app.bot)
        query_id = read.callback_query.id if read.callback_query is not None else None
        slot = self.replies.expect(query_id)  # before PTB may start on it
        await self.app.update_queue.put(read)
        if slot is None or query_id is None:
            return web.Response(text="ok")
        return await self.replies.respond(query_id, slot)
