"""The HTTP side: an aiohttp app answering `/bot<token>/<method>` like api.telegram.org.

Per request: check the token, parse the parameters (query string, form, multipart or JSON),
consult fault injection, run the handler, answer with Telegram's JSON. Kept lean: the benchmark
pushes hundreds of requests a second through here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from aiohttp import web

from .errors import NOT_FOUND, UNAUTHORIZED, ApiError
from .faults import FaultRule
from .methods import lookup
from .params import Params, Upload
from .world import RequestRecord, World

log = logging.getLogger(__name__)


def _json(body: dict[str, Any], status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(body, ensure_ascii=False).encode(),
        status=status,
        content_type="application/json",
    )


def _error(err: ApiError) -> web.Response:
    return _json(err.payload(), err.code)


async def read_params(request: web.Request) -> dict[str, Any]:
    """Parameters as Telegram accepts them: query string, then the body of any supported type."""
    params: dict[str, Any] = dict(request.query)
    if not request.body_exists:
        return params
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except ValueError:
            raise ApiError(400, "Bad Request: can't parse JSON request body") from None
        if isinstance(body, dict):
            params.update(body)
    else:  # application/x-www-form-urlencoded and multipart/form-data
        for name, value in (await request.post()).items():
            if isinstance(value, web.FileField):
                params[name] = Upload(value.filename, value.content_type, value.file.read())
            else:
                params[name] = value if isinstance(value, str) else bytes(value).decode()
    return params


class Server:
    def __init__(self, world: World) -> None:
        self.world = world
        self.stopping = asyncio.Event()
        self.app = web.Application()
        self.app.router.add_route("*", "/bot{token}/{method}", self.handle)
        self.app.router.add_get("/file/bot{token}/{path:.+}", self.download)
        self.runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        self.port = self.runner.addresses[0][1]  # the real port when asked for port 0

    async def stop(self) -> None:
        self.stopping.set()
        self.world.updates.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    async def _sleep(self, seconds: float) -> None:
        """Sleep that ends early when the server stops."""
        if seconds > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), seconds)

    async def _held(self, fault: FaultRule) -> None:
        """Until the test releases a "hold" rule (or the server stops)."""
        waits = [
            asyncio.ensure_future(fault.released.wait()),
            asyncio.ensure_future(self.stopping.wait()),
        ]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def download(self, request: web.Request) -> web.StreamResponse:
        """A file download, as api.telegram.org/file/bot<token>/<file_path> serves it."""
        world = self.world
        if request.match_info["token"] != world.token:
            return _error(UNAUTHORIZED)
        file_id = world.file_paths.get(request.match_info["path"])
        if file_id is None:
            return _error(NOT_FOUND)
        world.stats.requests["download"] += 1
        upload = world.files[file_id]
        return web.Response(body=upload.data, content_type="application/octet-stream")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        world = self.world
        if request.match_info["token"] != world.token:
            return _error(UNAUTHORIZED)
        found = lookup(request.match_info["method"])
        if found is None:
            return _error(NOT_FOUND)
        name, handler = found
        try:
            raw = await read_params(request)
        except ApiError as err:
            return _error(err)
        world.stats.requests[name] += 1
        if request.transport is not None:  # one peer per connection: keep-alive is visible
            world.stats.connections.add(request.transport.get_extra_info("peername"))
        world.requests.append(RequestRecord(world.clock(), name, raw))
        fault = world.faults.take(name.lower(), raw) if world.faults.rules else None
        if fault is not None:
            return await self._faulty(request, fault, name, handler, raw)
        return await self._run(name, handler, raw)

    async def call(self, method: str, raw: dict[str, Any]) -> bool:
        """A method the bot asked for in a webhook's response, made on its behalf as Telegram
        makes it (recorded like a request; no faults); whether it succeeded, which Telegram
        never tells the bot."""
        found = lookup(method)
        if found is None:
            return False
        name, handler = found
        self.world.stats.requests[name] += 1
        self.world.requests.append(RequestRecord(self.world.clock(), name, raw))
        return (await self._run(name, handler, raw)).status == 200

    async def _run(self, name: str, handler: Any, raw: dict[str, Any]) -> web.Response:
        world = self.world
        try:
            result = await handler(world, Params(raw))
        except ApiError as err:
            return self._failed(name, err)
        except Exception:  # a bug in the emulator must not look like a network failure
            log.exception("emulator handler %s failed", name)
            return self._failed(name, ApiError(500, "Internal Server Error"))
        if world.hooks:
            now = time.perf_counter()
            for hook in world.hooks:
                hook(name, raw, now)
        return _json({"ok": True, "result": result})

    def _failed(self, name: str, err: ApiError) -> web.Response:
        self.world.stats.errors[name, err.code] += 1
        if err.code == 429:
            self.world.stats.flood_errors += 1
        return _error(err)

    async def _faulty(
        self, request: web.Request, fault: FaultRule, name: str, handler: Any, raw: dict[str, Any]
    ) -> web.StreamResponse:
        if fault.kind == "delay":
            await self._sleep(fault.wait)
            return await self._run(name, handler, raw)
        if fault.kind == "hold":
            held = await self._run(name, handler, raw)
            await self._held(fault)
            return held
        response = await self._run(name, handler, raw) if fault.handled else None
        await self._sleep(fault.wait)
        error = fault.error()
        if error is not None:
            return self._failed(name, error)
        if fault.kind == "not_json":
            page = "<html><body><h1>502 Bad Gateway</h1></body></html>"
            return web.Response(status=502, text=page, content_type="text/html")
        if fault.kind == "result":
            return _json({"ok": True, "result": fault.result})
        if fault.kind == "drop":
            if request.transport is not None:
                request.transport.abort()
            raise asyncio.CancelledError  # nothing may be written on a dropped connection
        # "timeout": by now the client has given up; this answer reaches nobody.
        return response or _error(ApiError(504, "Gateway Timeout"))
