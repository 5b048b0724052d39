"""A wire for rate-limit tests: calls recorded with their times on a fake clock. Shared by the
rate-limit and shared-pace tests, so no test imports another."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter

from bot.tg.wire.ratelimit import PacedRateLimiter

EPS = 0.002  # seconds: clock and loop granularity


class Wire:
    """A fake Telegram: records (endpoint, chat_id, start, end) per call; optional latency."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.calls: list[tuple[str, object, float, float]] = []
        self.flying = 0
        self.max_flying = 0
        self.fail: dict[str, int] = {}  # endpoint -> 429s still to answer
        self.retry_after = timedelta(milliseconds=50)

    async def __call__(self, endpoint: str, data: dict[str, Any]) -> bool:
        start = time.monotonic()
        self.flying += 1
        self.max_flying = max(self.max_flying, self.flying)
        try:
            if self.latency:
                await asyncio.sleep(self.latency)
            if self.fail.get(endpoint):
                self.fail[endpoint] -= 1
                raise RetryAfter(self.retry_after)
            return True
        finally:
            self.flying -= 1
            self.calls.append((endpoint, data.get("chat_id"), start, time.monotonic()))

    def starts(self, endpoint: str | None = None) -> list[float]:
        return sorted(s for e, _, s, _ in self.calls if endpoint in (None, e))


async def call(
    limiter: PacedRateLimiter, wire: Wire, endpoint: str, chat_id: object = None, **extra: Any
) -> Any:
    data = {"chat_id": chat_id, **extra} if chat_id is not None else dict(extra)
    return await limiter.process_request(wire, (endpoint, data), {}, endpoint, data, None)
