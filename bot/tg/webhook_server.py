"""The single-process webhook: our own aiohttp server feeding PTB's update queue (PTB's
documented custom-webhook pattern: `application.update_queue.put(Update.de_json(...))`).

PTB's built-in server (tornado) reads a whole body before it looks at the secret (a stranger's
60 MB were buffered, three at once +240 MB), reads up to 100 MB, and logs a malformed body
with the secret at CRITICAL with its traceback. The workers' front had none of this; both now
pass through the same door (bot/webhook_gate.py).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from telegram import Bot, Update
from telegram.ext import Application

from bot.webhook_gate import NotAnUpdate, WebhookGate, serve


def read_update(update: dict[str, Any], bot: Bot) -> Update:
    """PTB's reading of a webhook body, or `NotAnUpdate` (400, one line). Any exception: the
    body came with the secret but a shape PTB's classes cannot take (`"message": "hi"`); PTB's
    own webhook catches every exception here too."""
    try:
        return Update.de_json(update, bot)
    except Exception as exc:
        raise NotAnUpdate(f"not a Telegram update ({type(exc).__name__})") from exc


class WebhookServer:
    """Serves the webhook on host:port; an update read is queued for PTB's handlers."""

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any], secret: str) -> None:
        self.app = app
        self.gate = WebhookGate(secret, self.deliver)
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> None:
        self._runner = await serve(self.gate.app(), host, port)

    async def stop(self) -> None:
        """Stop taking updates (those already queued are handled by PTB's `stop`)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def deliver(self, update_id: int, update: dict[str, Any], raw: str) -> web.Response:
        await self.app.update_queue.put(read_update(update, self.app.bot))
        return web.Response(text="ok")
