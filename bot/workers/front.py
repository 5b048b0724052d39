"""The webhook front: an update is stored in PostgreSQL before Telegram is told 200.

Every worker process serves it on the same port (SO_REUSEPORT: the kernel spreads connections), so
any worker may receive any update and any worker may process it. Telegram retries an update it got
no 200 for, so a front that dies mid-request loses nothing; one that answered 200 had committed the
row (requests arriving together are stored by one statement, each answered once it has committed:
bot/store/pg/inbox.py). `/healthz` says the process is up; `/readyz` says it can take work (its
database answers and its worker loop runs): a load balancer routes only to ready workers.
`/metrics` is the host's Prometheus page (bot/observability/exposition.py).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import orjson
from aiohttp import web

from bot.observability.exposition import add_routes
from bot.observability.metrics import Probe
from bot.ordering import json_ordering_key
from bot.store.pg.inbox import Placed, UpdateQueue
from bot.webhook_gate import PATH, WebhookGate
from bot.webhook_replies import WebhookReplies, tapped_query

log = logging.getLogger(__name__)


class Front:
    """The webhook door (bot/webhook_gate.py: the secret before the body, 1 MB, one line per
    refusal), then `check` (the adapter's: is it an update PTB can read? A body stored here that
    the worker could not read would fail there, with a traceback) and the store."""

    def __init__(
        self,
        queue: UpdateQueue,
        secret: str,
        *,
        path: str = PATH,
        running: Callable[[], bool] = lambda: True,
        check: Callable[[dict[str, Any]], object] = lambda update: None,
        probe: Probe | None = None,
        keep: Callable[[str, object], None] = lambda payload, read: None,
        replies: WebhookReplies | None = None,
    ) -> None:
        """`keep(payload, read)`: what `check` read of an update it stores, for this process's own
        worker, which then need not parse it again (bot/tg/wire/read_updates.py). `replies`: a
        tap this process's worker takes may answer in the webhook's response
        (bot/webhook_replies.py)."""
        self.queue, self.running, self.check, self.keep = queue, running, check, keep
        self.replies = replies or WebhookReplies(0)
        self.probe = probe
        self.gate = WebhookGate(secret, self.store, path=path)

    def app(self, *, webhook: bool = True) -> web.Application:
        """The routes; without `webhook` (the workers long-poll: bot/workers/poller.py), only
        health, readiness and metrics: no door for updates that no Telegram sends here."""
        app = self.gate.app() if webhook else web.Application()
        app.router.add_get("/healthz", self.health)
        app.router.add_get("/readyz", self.ready)
        add_routes(app, self.probe)  # every worker of the host added up (exposition.py)
        return app

    def put(self, update_id: int, update: dict[str, Any]) -> Awaitable[bool]:
        """`place`, without saying where: the poller's batches (bot/workers/poller.py)."""
        return self.queue.put(*self._payload(update_id, update))

    def place(self, update_id: int, update: dict[str, Any]) -> Awaitable[Placed]:
        """The update read by PTB (`check`: raises NotAnUpdate), then put in the inbox as PTB
        read it; awaiting the result waits for its commit, and says whether it was a copy or
        this process's worker took it. The webhook door's `store` and the poller's batches
        (`put`) both store this way."""
        return self.queue.place(*self._payload(update_id, update))

    def _payload(self, update_id: int, update: dict[str, Any]) -> tuple[int, str, str]:
        read = self.check(update)
        # Stored as PTB read it: `check` left out a tapped message's formatting and buttons,
        # which no handler reads (tg/wire/tapped_message.py), half a tap's bytes to write,
        # log and read back (issue 32).
        payload = orjson.dumps(update).decode()
        # Kept before the put: this process's worker may take the update within the put
        # itself (inbox.LocalWorker) and start on it before the put returns. One that is not
        # stored (a copy, a failed put) falls out after newer ones.
        self.keep(payload, read)
        return update_id, json_ordering_key(update), payload

    async def store(self, update_id: int, update: dict[str, Any]) -> web.Response:
        query_id = tapped_query(update)
        placing = self.place(update_id, update)  # NotAnUpdate: the gate answers 400
        # Expected before the put is awaited: this process's worker may start on the tap
        # within the put itself.
        slot = self.replies.expect(query_id)
        try:
            placed = await placing
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            if slot is not None:
                self.replies.release(query_id)
            # No 200: Telegram keeps the update and sends it again.
            log.error("webhook: update %d not stored: %s", update_id, exc)
            return web.Response(status=503, text="try again")
        if slot is None or query_id is None:
            return web.Response(text="ok")
        if placed is not Placed.HERE:  # another worker's, or a copy: nothing to wait for here
            self.replies.release(query_id)
            return web.Response(text="ok")
        return await self.replies.respond(query_id, slot)

    async def health(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def ready(self, request: web.Request) -> web.Response:
        if not self.running():
            return web.Response(status=503, text="stopping")
        if not await self.queue.reachable():
            return web.Response(status=503, text="database unreachable")
        return web.Response(text="ready")
