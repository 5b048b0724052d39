"""PTB's HTTP seam on aiohttp + orjson: the same Bot API calls for about half the CPU of httpx.

PTB's default `HTTPXRequest` (httpx → httpcore → anyio) and its stdlib JSON were ≈ 60–70 % of
quizbot's CPU per tap (BENCHMARKS.md). `AiohttpRequest` is a `telegram.request.BaseRequest`,
PTB's documented extension point, so everything above it is unchanged: `BaseRequest.post` still
turns 4xx/5xx answers into `BadRequest`, `Forbidden`, `RetryAfter` (with `retry_after`),
`ChatMigrated`, `Conflict`, `InvalidToken`; this class maps what happens on the wire the way
`HTTPXRequest` does: a timeout is `TimedOut`, a full pool is `TimedOut` with PTB's pool message,
any other transport failure is `NetworkError`.

Differences from `HTTPXRequest`, each on purpose:
- Parameters go as one JSON body (Telegram accepts `application/json` for every method but
  uploads), encoded once by orjson instead of `json.dumps` per parameter plus URL-encoding.
  Uploads go as `multipart/form-data`, like PTB's.
- aiohttp has no per-write timeout. For uploads, `media_write_timeout` (or `write_timeout`)
  bounds the request as part of one deadline of connect + write + read; other bodies are a few
  KB that the socket buffer takes at once. `connect_timeout` bounds the TCP connect and
  `read_timeout` the wait for each read once the body is sent, as in httpx.
- HTTP/1.1 only, no proxy: `QUIZBOT_TRANSPORT=httpx` gives PTB's own class for those
  (`HttpxRequest`: `HTTPXRequest` reading bodies as this class does, `read_json`).
- Behind a webhook, a tap's answerCallbackQuery rides on the open webhook response when it can
  (bot/webhook_replies.py): no request is sent, and Telegram's `true` is reported.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import aiohttp
import orjson
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.ext import ApplicationBuilder
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from bot.webhook_replies import WebhookReplies

log = logging.getLogger(__name__)

TRANSPORTS = ("aiohttp", "httpx")
POOL_TIMEOUT_MESSAGE = (
    "Pool timeout: All connections in the connection pool are occupied. Request was *not* sent "
    "to Telegram. Consider adjusting the connection pool size or the pool timeout."
)
_JSON_HEADERS = {"Content-Type": "application/json"}
_SENT = b'{"ok":true,"result":true}'  # Telegram's answer to an answerCallbackQuery

Timeout = float | None


def _pick(value: object, default: Timeout) -> Timeout:
    """PTB's convention: DEFAULT_NONE means "the default given at construction"."""
    if value is BaseRequest.DEFAULT_NONE:
        return default
    return value  # type: ignore[return-value]


def _body(request_data: RequestData) -> bytes:
    """All parameters as one JSON object; stdlib JSON for what orjson refuses (e.g. int keys)."""
    parameters = request_data.parameters
    try:
        return orjson.dumps(parameters)
    except TypeError:
        return json.dumps(parameters).encode()


def _form(request_data: RequestData) -> aiohttp.FormData:
    """An upload: strings as they are, other parameters JSON-encoded, files as file parts."""
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, (filename, content, mime) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=mime)
    return form


class AiohttpRequest(BaseRequest):
    """A `BaseRequest` on one aiohttp session with a keep-alive pool of `connection_pool_size`.

    Same constructor defaults as `HTTPXRequest` (timeouts 5/5/5 s, pool 1 s, uploads 20 s)."""

    __slots__ = (
        "_connect_timeout",
        "_media_write_timeout",
        "_pool",
        "_pool_size",
        "_pool_timeout",
        "_read_timeout",
        "_replies",
        "_session",
        "_timeouts",
        "_write_timeout",
    )

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: Timeout = 5.0,
        write_timeout: Timeout = 5.0,
        connect_timeout: Timeout = 5.0,
        pool_timeout: Timeout = 1.0,
        media_write_timeout: Timeout = 20.0,
        replies: WebhookReplies | None = None,
    ) -> None:
        """`replies`: the webhook responses still open in this process, which popups ride on."""
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._replies = replies
        self._session: aiohttp.ClientSession | None = None
        self._pool: asyncio.Semaphore | None = None
        # aiohttp timeouts by (connect, read): built once, not per request.
        self._timeouts: dict[tuple[Timeout, Timeout], aiohttp.ClientTimeout] = {}

    @property
    def read_timeout(self) -> Timeout:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is not None and not self._session.closed:
            return
        # The pool is the semaphore (so a full pool waits `pool_timeout`, as in httpx); the
        # connector keeps up to that many connections alive for reuse.
        self._pool = asyncio.Semaphore(self._pool_size)
        connector = aiohttp.TCPConnector(limit=self._pool_size, limit_per_host=0)
        self._session = aiohttp.ClientSession(
            connector=connector,
            headers={"User-Agent": self.USER_AGENT},
            timeout=aiohttp.ClientTimeout(total=None),
            raise_for_status=False,
        )

    async def shutdown(self) -> None:
        if self._session is None or self._session.closed:
            log.debug("This AiohttpRequest is already shut down. Returning.")
            return
        await self._session.close()

    def _client_timeout(self, connect: Timeout, read: Timeout) -> aiohttp.ClientTimeout:
        key = (connect, read)
        timeout = self._timeouts.get(key)
        if timeout is None:
            timeout = aiohttp.ClientTimeout(total=None, sock_connect=connect, sock_read=read)
            if len(self._timeouts) < 64:  # getUpdates varies read; bounded anyway
                self._timeouts[key] = timeout
        return timeout

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session, pool = self._session, self._pool
        if session is None or session.closed or pool is None:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data is not None and request_data.contains_files
        replies = self._replies
        if (
            replies is not None
            and replies.expecting  # else not even the parameters are looked at
            and request_data is not None
            and not files
            and replies.offer(url.rpartition("/")[2], request_data.parameters)
        ):
            return 200, _SENT
        read = _pick(read_timeout, self._read_timeout)
        connect = _pick(connect_timeout, self._connect_timeout)
        write = _pick(write_timeout, self._media_write_timeout if files else self._write_timeout)
        wait = _pick(pool_timeout, self._pool_timeout)

        data: bytes | aiohttp.FormData | None = None
        headers = None
        if request_data is not None:
            if files:
                data = _form(request_data)
            else:
                data, headers = _body(request_data), _JSON_HEADERS

        if pool.locked():
            try:
                async with asyncio.timeout(wait):
                    await pool.acquire()
            except TimeoutError as err:
                raise TimedOut(message=POOL_TIMEOUT_MESSAGE) from err
        else:
            await pool.acquire()  # returns at once: no suspension on a free pool
        try:
            # The write timeout, as part of one deadline. Without files the body is a few KB
            # that the socket's buffer takes at once: no deadline (a timer per request saved).
            deadline = None
            if files and None not in (connect, write, read):
                deadline = connect + write + read  # type: ignore[operator]
            async with asyncio.timeout(deadline):
                async with session.request(
                    method,
                    url,
                    data=data,
                    headers=headers,
                    timeout=self._client_timeout(connect, read),
                ) as response:
                    return response.status, await response.read()
        except TimeoutError as err:  # aiohttp's ServerTimeoutError is a TimeoutError too
            raise TimedOut from err
        except (aiohttp.ClientError, OSError) as err:
            raise NetworkError(f"aiohttp.{type(err).__name__}: {_redact(str(err), url)}") from err
        finally:
            pool.release()

    @staticmethod
    def parse_json_payload(payload: bytes) -> dict[str, Any]:
        return read_json(payload)


class HttpxRequest(HTTPXRequest):
    """PTB's own `HTTPXRequest` (`QUIZBOT_TRANSPORT=httpx`), reading bodies as
    `AiohttpRequest` does (`read_json`): a proxy's HTML 502 page is one retried line, not PTB's
    ERROR with a traceback. `parse_json_payload` is PTB's documented override for this."""

    __slots__ = ()

    @staticmethod
    def parse_json_payload(payload: bytes) -> dict[str, Any]:
        return read_json(payload)


def read_json(payload: bytes) -> dict[str, Any]:
    """A Bot API answer: orjson; what it refuses (e.g. invalid UTF-8) is read as PTB's own parser
    reads it (bad bytes replaced), and what is no JSON at all (a proxy's HTML error page) raises
    `TelegramError("Invalid server response")` as PTB's does, but without PTB's ERROR line and
    traceback: the caller's retry says it in one line (bot/tg/wire/retry.py)."""
    try:
        parsed = orjson.loads(payload)
    except orjson.JSONDecodeError:
        try:
            parsed = json.loads(payload.decode("utf-8", "replace"))
        except ValueError:
            raise TelegramError("Invalid server response") from None
    if not isinstance(parsed, dict):
        raise TelegramError("Invalid server response")
    return parsed


def _redact(message: str, url: str) -> str:
    """An error text without the request URL, which holds the token (e.g. aiohttp's
    "Can not write request body for <url>")."""
    if url in message:
        return message.replace(url, "<Bot API URL>/" + url.rsplit("/", 1)[-1])
    return message


def use_transport(
    builder: ApplicationBuilder,  # type: ignore[type-arg]
    transport: str,
    *,
    connection_pool_size: int,
    pool_timeout: float,
    replies: WebhookReplies | None = None,
) -> ApplicationBuilder:  # type: ignore[type-arg]
    """Give the builder its HTTP stack: ours (`aiohttp`) or PTB's default (`httpx`, as
    `HttpxRequest`), sized alike.

    getUpdates gets its own single-connection request object either way, as PTB does (the bot
    replaces it with its own: bot/tg/app.py). Popups ride on webhook responses (`replies`) with
    ours only."""
    if transport == "httpx":
        return builder.request(
            HttpxRequest(connection_pool_size, pool_timeout=pool_timeout)
        ).get_updates_request(HttpxRequest(1))
    if transport != "aiohttp":
        raise ValueError(f"unknown transport {transport!r}; one of {', '.join(TRANSPORTS)}")
    return builder.request(
        AiohttpRequest(connection_pool_size, pool_timeout=pool_timeout, replies=replies)
    ).get_updates_request(AiohttpRequest(1))
