"""The bot's overall sending rhythm when several processes, on several hosts, send for one bot.

Telegram limits a bot as a whole (about 30 messages a second), whichever process sends. One
process keeps the rhythm itself (`PacedRateLimiter`: one release every 1/rate seconds). With
several workers the rhythm is one schedule shared through the database: a worker *leases* the
next few slots of the bot's schedule in one statement (`lease(k)`: their offsets from now), and
releases one counted request per slot, at its time. Every worker's slots come from the same
schedule, so the releases of all of them together are spaced as one process's would be.

Why leases of a few slots rather than one statement per send: the statement is the cost of the
hot path, and a fan-out asks for many slots at once; `lease_size` is how many requests are
waiting here, capped at `MAX_LEASE` (a fraction of a second of the bot's budget), so an idle
worker takes one slot at a time and wastes none, and a busy one pays one trip per few sends.

A leased slot not used within one interval of its time is dropped, never used late: a late
release could land in the same second as later slots and exceed the bot's budget. If the
database cannot be reached, the worker falls back to its local rhythm at `fallback_share` of
the rate (its share were every worker as busy), and says so once.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

MAX_LEASE = 4  # slots leased at once: ~0.15 s of a 27/s budget


@dataclass(frozen=True, slots=True)
class SharedBudget:
    """How to reach the shared schedule (bot/store/pg/pacing.py implements both calls).

    `lease(k, interval)`: book the bot's next `k` slots `interval` apart; their offsets, in
    seconds from now (the database's now, so hosts' clocks need not agree).
    `pause(seconds)`: push the whole schedule back (Telegram answered 429 to one worker: every
    worker waits, not only the one that was told).
    """

    lease: Callable[[int, float], Awaitable[list[float]]]
    pause: Callable[[float], Awaitable[None]]
    rate: float = 25.0  # the bot's counted requests per second, all workers together
    fallback_share: int = 1  # this worker's share of `rate` while the database is unreachable
    retry: float = 5.0  # seconds between attempts to reach the schedule again (sends go on)

    @property
    def interval(self) -> float:
        return 1.0 / self.rate


class SharedSlots:
    """One worker's view of the shared schedule: the slots it leased and not used yet."""

    def __init__(self, budget: SharedBudget, clock: Callable[[], float]) -> None:
        self.budget, self.clock = budget, clock
        self.leased: deque[float] = deque()  # local clock times, ascending
        self.failing = False
        self.retry_at = 0.0  # while failing: when to try the shared schedule again
        self.local_next = 0.0  # the fallback rhythm's next slot

    async def next(self, waiting: int) -> float:
        """The local time of this worker's next slot (leasing more if none is left)."""
        interval = self.budget.interval
        now = self.clock()
        while self.leased and self.leased[0] < now - interval:
            self.leased.popleft()  # too late to use: dropped, never used late
        if self.leased:
            return self.leased[0]
        if self.failing and now < self.retry_at:  # not a database trip per send meanwhile
            return max(self.local_next, now)
        count = max(1, min(MAX_LEASE, waiting))
        try:
            offsets = await self.budget.lease(count, interval)
        except Exception as exc:  # whatever the store raised: pace locally
            if not self.failing:
                log.warning("shared send budget unavailable (%s): pacing locally", exc)
            self.failing = True
            self.retry_at = self.clock() + self.budget.retry
            return max(self.local_next, now)
        if self.failing:
            log.info("shared send budget reachable again")
        self.failing = False
        now = self.clock()
        self.leased.extend(now + offset for offset in offsets)
        return self.leased[0]

    def used(self, now: float) -> None:
        """A request was released at `now` on the slot `next` returned."""
        if self.failing or not self.leased:
            spacing = self.budget.interval * max(1, self.budget.fallback_share)
            self.local_next = max(self.local_next, now) + spacing
            return
        self.leased.popleft()

    async def pause(self, seconds: float) -> None:
        """Telegram said 429: the whole bot waits, on every worker."""
        try:
            await self.budget.pause(seconds)
        except Exception as exc:  # the local pause still holds this worker
            log.warning("could not share a flood pause (%s)", exc)
        self.leased.clear()  # slots leased before the pause would fall inside it
