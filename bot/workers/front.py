"""The webhook front: an update is stored in PostgreSQL before Telegram is told 200.

Every worker process serves it on the same port (SO_REUSEPORT: the kernel spreads connections),
so any worker may receive any update and any worker may process it. Telegram retries an update
it got no 200 for, so a front that dies mid-request loses nothing; one that answered 200 had
committed the row. `/healthz` says the process is up; `/readyz` says it can take work (its
database answers and its worker loop runs): a load balancer routes only to ready workers.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Callable

import asyncpg
from aiohttp import web

from bot.store.pg.inbox import UpdateQueue
from bot.workers.keys import ordering_key

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # Telegram's updates are far smaller; anything larger is not one


class Front:
    def __init__(
        self,
        queue: UpdateQueue,
        secret: str,
        *,
        path: str = "/telegram",
        running: Callable[[], bool] = lambda: True,
    ) -> None:
        self.queue, self._secret, self.path, self.running = queue, secret.encode(), path, running

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_post(self.path, self.receive)
        app.router.add_get("/healthz", self.health)
        app.router.add_get("/readyz", self.ready)
        return app

    async def receive(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self._secret):
            return web.Response(status=403, text="forbidden")
        try:
            raw = await request.text()
            update = json.loads(raw)
            update_id = update["update_id"]
            if not isinstance(update_id, int) or isinstance(update_id, bool):
                raise TypeError("update_id is not an integer")
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("webhook: not an update (%s)", type(exc).__name__)
            return web.Response(status=400, text="not an update")
        try:
            await self.queue.put(update_id, ordering_key(update), raw)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            # No 200: Telegram keeps the update and sends it again.
            log.error("webhook: update %d not stored: %s", update_id, exc)
            return web.Response(status=503, text="try again")
        return web.Response(text="ok")

    async def health(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def ready(self, request: web.Request) -> web.Response:
        if not self.running():
            return web.Response(status=503, text="stopping")
        try:
            await self.queue.pool.fetchval("SELECT 1")
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return web.Response(status=503, text="database unreachable")
        return web.Response(text="ready")
