"""The one place Bot API requests are retried, with one budget for every request.

Every request but `getUpdates` (PTB's updater has its own back-off) passes through the bot's rate
limiter, so that is where retries live: `PacedRateLimiter` in production, `RetryingLimiter`
(retries, no pacing) when pacing is off. Nothing above retries again, so a failure is never
retried N × M times by two stacked layers.

The budget: at most `RETRIES` retries per request, whatever failed —
- 429: wait its `retry_after` + 0.1 s (the paced limiter holds every counted request meanwhile);
- network errors, timeouts, 5xx: wait 0.5, 1, 2, 4 s;
- anything else (400, 403, a migrated chat) is not retried: retrying cannot fix it.
A request whose response was lost may have taken effect: a retried send can then show a message
twice, which is harmless (its buttons carry the same data), whereas a message never shown is not.

`rate_limit_args` (PTB passes it from each call to the limiter) is an int, the retries of that
call, or `OnWire`: a coroutine the limiter awaits just before the request leaves, after every
wait for a slot, so a caller can record durably that a send is on its way (a group question:
bot/tg/group_run_handlers.py, never sent twice by a worker that takes over from one that died), or
`Courtesy`: a reply to a member that the run's own sends go before, and that the paced limiter
refuses (`Shed`) rather than let it take the group's last places (bot/tg/wire/ratelimit.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import BaseRateLimiter

from bot.observability import metrics

log = logging.getLogger(__name__)

T = TypeVar("T")
RETRIES = 4
FIRST_PAUSE = 0.5  # seconds; doubles after each transient failure
PAUSE_PADDING = 0.1  # seconds added to retry_after, as PTB's AIORateLimiter does
JSONResult = bool | dict[str, Any] | list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class OnWire:
    """A call's `rate_limit_args`: `leaving()` runs before each attempt leaves for Telegram;
    if it fails, the request is not sent."""

    leaving: Callable[[], Awaitable[None]]
    retries: int | None = None


@dataclass(frozen=True, slots=True)
class Courtesy:
    """A call's `rate_limit_args` for a courtesy reply in a group (bot/core/courtesy.py): the
    run's sends to the group go first, and it is refused with `Shed` rather than wait when the
    group's budget is short."""

    retries: int | None = None


class Shed(TelegramError):
    """A courtesy reply not sent: the group's budget is kept for its run's own sends."""


LimitArgs = int | OnWire | Courtesy


def limit_args(args: LimitArgs | None, default: int) -> tuple[int, OnWire | None]:
    """(retries, the hook to run before each attempt) of a call's `rate_limit_args`."""
    if isinstance(args, OnWire):
        return (default if args.retries is None else args.retries), args
    if isinstance(args, Courtesy):
        return (default if args.retries is None else args.retries), None
    return (default if args is None else args), None


def retry_after_seconds(exc: RetryAfter) -> float:
    wait = exc.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


async def with_retries(
    call: Callable[[], Awaitable[T]],
    endpoint: str,
    retries: int = RETRIES,
    on_flood: Callable[[float], Awaitable[None]] | None = None,
) -> T:
    """Run `call`, retrying what passes (429, network errors, timeouts, 5xx) `retries` times.

    `on_flood(seconds)` waits out a 429 (default: sleep); the paced limiter pauses every counted
    request instead, since a 429 does not say whether the chat or the whole bot was over.
    """
    pause = FIRST_PAUSE
    counted = metrics.api(endpoint)  # every request passes here, on either transport
    for attempt in range(retries + 1):
        try:
            result = await call()
        except BadRequest:  # a subclass of NetworkError, but retrying cannot fix it
            counted.failed("bad_request")
            raise
        except RetryAfter as exc:
            counted.failed("flood")
            metrics.flood(retry_after_seconds(exc))
            if attempt == retries:
                log.warning("%s: 429 after %d retries, giving up", endpoint, retries)
                raise
            seconds = retry_after_seconds(exc) + PAUSE_PADDING
            log.info("%s: 429, retrying in %.1f s", endpoint, seconds)
            await (on_flood(seconds) if on_flood is not None else asyncio.sleep(seconds))
        except NetworkError as exc:  # TimedOut and 5xx included
            counted.failed("timeout" if isinstance(exc, TimedOut) else "network")
            if attempt == retries:
                log.warning("%s: failed after %d retries: %s", endpoint, retries, exc)
                raise
            log.info("%s: transient error, retrying in %.1f s: %s", endpoint, pause, exc)
            await asyncio.sleep(pause)
            pause *= 2
        except Forbidden:
            counted.failed("forbidden")
            raise
        except Shed:  # refused before it left: no request was sent
            raise
        except TelegramError:
            counted.failed("other")
            raise
        else:
            counted.answered()
            return result
    raise AssertionError("unreachable")


class RetryingLimiter(BaseRateLimiter[LimitArgs]):
    """The retry layer alone, for a bot that does not pace its requests (tests, benchmark)."""

    def __init__(self, retries: int = RETRIES) -> None:
        self.retries = retries

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSONResult]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: LimitArgs | None,
    ) -> JSONResult:
        retries, hook = limit_args(rate_limit_args, self.retries)

        async def attempt() -> JSONResult:
            if hook is not None:
                await hook.leaving()
            return await callback(*args, **kwargs)

        return await with_retries(attempt, endpoint, retries)
