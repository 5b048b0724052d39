"""The door of Telegram's webhook, shared by the single-process bot (bot/tg/wire/webhook_server.py)
and the workers' front (bot/workers/front.py).

Anyone who finds the URL can post to it, so the cheap checks come first: the secret header before
a byte of the body is read (a stranger's 60 MB costs nothing), then at most `MAX_BODY` bytes,
then a JSON object with an integer `update_id`. A refusal is one short log line while the log's
budget lasts (bot/log_budget.py: a stranger can repeat it at will); never a traceback, never the
secret, never the body.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.log_budget import LogBudget, QuietServerLog, client_error, log_refusal

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # Telegram's updates are far smaller; anything larger is not one
MAX_UPDATE_ID = 2**63  # a BIGINT; Telegram's ids are far below
PATH = "/telegram"


class NotAnUpdate(ValueError):
    """A body with the secret that is no update Telegram would send (answered 400)."""


# What a front does with an update that passed the door: (update_id, update) -> reply.
Deliver = Callable[[int, dict[str, Any]], Awaitable[web.Response]]


class WebhookGate:
    """The POST route of the webhook: checks, then `deliver`; `NotAnUpdate` from it is a 400."""

    def __init__(self, secret: str, deliver: Deliver, *, path: str = PATH) -> None:
        self._secret, self.deliver, self.path = secret.encode(), deliver, path
        self.refusals = LogBudget()

    def app(self) -> web.Application:
        """An application with the webhook route; a front adds its own routes to it."""
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_post(self.path, self.receive)
        return app

    def _refused(self, request: web.Request, what: str, *args: object) -> None:
        log_refusal(log, self.refusals, "webhook: refused a request to %s from %s: " + what,
                    request.path[:80], request.remote, *args)  # fmt: skip

    async def receive(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "replace")
        # An empty secret (a worker started by hand without one) is no lock: nothing gets in.
        if not self._secret or not hmac.compare_digest(given, self._secret):
            self._refused(request, "403 no secret")
            return web.Response(status=403, text="forbidden")
        if request.headers.get("Content-Encoding", "identity").lower() != "identity":
            # Telegram never compresses; an encoded body could inflate far past MAX_BODY.
            self._refused(request, "415 an encoded body")
            return web.Response(status=415, text="no content encoding")
        if (request.content_length or 0) > MAX_BODY:
            self._refused(request, "413 a body over %d bytes", MAX_BODY)
            return web.Response(status=413, text="too large")
        try:
            body = await request.read()  # raises 413 past client_max_size (chunked bodies)
            update_id, update = parse(body)
            return await self.deliver(update_id, update)
        except web.HTTPRequestEntityTooLarge:
            self._refused(request, "413 a body over %d bytes", MAX_BODY)
            return web.Response(status=413, text="too large")
        except (HttpProcessingError, web.RequestPayloadError) as exc:  # e.g. broken chunks
            if client_error(exc) is None:
                raise
            self._refused(request, "400 a malformed body")
            return web.Response(status=400, text="bad request")
        except NotAnUpdate as exc:
            self._refused(request, "400 no update (%s)", exc)
            return web.Response(status=400, text="not an update")


def parse(body: bytes) -> tuple[int, dict[str, Any]]:
    """The update's id and fields, or `NotAnUpdate` saying briefly why (never quoting it).
    orjson refuses invalid UTF-8 and nesting past 1,024 levels; the stdlib's `json` would
    raise RecursionError on 100,000 brackets."""
    try:
        update = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise NotAnUpdate("not JSON") from exc
    if not isinstance(update, dict):
        raise NotAnUpdate(f"a JSON {type(update).__name__}, not an object")
    update_id = update.get("update_id")
    if not isinstance(update_id, int) or isinstance(update_id, bool):
        raise NotAnUpdate("no integer update_id")
    if not 0 <= update_id < MAX_UPDATE_ID:
        raise NotAnUpdate("update_id out of range")
    return update_id, update


async def serve(
    app: web.Application, host: str, port: int, *, reuse_port: bool = False
) -> web.AppRunner:
    """Listen on host:port with aiohttp's parse errors logged as one line (`logger` is the
    documented keyword AppRunner hands to its protocol) and no access log."""
    runner = web.AppRunner(app, access_log=None, logger=QuietServerLog("webhook", log))
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port, reuse_port=reuse_port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner
