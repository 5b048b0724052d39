"""Telegram calls that are worth waiting for: a question, a reveal, a verdict.

PTB's AIORateLimiter retries only 429s; a dropped connection or a 502 would otherwise lose a
question and leave a chat with nothing to tap. Private and group sends both go through here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TypeVar

from telegram.error import BadRequest, NetworkError, RetryAfter

log = logging.getLogger(__name__)

T = TypeVar("T")
TRIES = 4  # a question or a verdict is worth waiting a few seconds for
FIRST_PAUSE = 0.5  # seconds; doubles after each transient failure


async def patiently(call: Callable[[], Awaitable[T]]) -> T:
    """Run a Telegram call, retrying failures that pass: network errors, timeouts, 5xx, 429.

    PTB's AIORateLimiter retries only 429s; without this a dropped connection would lose the next
    question and leave the learner in front of a chat with no buttons. A request whose response
    was lost may have taken effect: a retried send can then show a message twice, which is
    harmless (its buttons carry the same data), whereas a message never shown is not.
    """
    pause = FIRST_PAUSE
    for attempt in range(1, TRIES + 1):
        try:
            return await call()
        except BadRequest:  # a subclass of NetworkError, but retrying cannot fix it
            raise
        except RetryAfter as exc:
            if attempt == TRIES:
                raise
            wait = exc.retry_after
            seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
            log.info("flood control: retrying in %.1f s", seconds)
            await asyncio.sleep(seconds)
        except NetworkError as exc:  # TimedOut included
            if attempt == TRIES:
                raise
            log.info("transient Telegram error, retrying in %.1f s: %s", pause, exc)
            await asyncio.sleep(pause)
            pause *= 2
    raise AssertionError("unreachable")
