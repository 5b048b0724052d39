"""A learner's reminder on durable timers (several workers, PostgreSQL): armed at its wall time
in the learner's zone, moved as one timer when the zone changes, claimed by one worker only, and
re-armed for the next day at the same local time across a daylight-saving change."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import asyncpg

from bot.store.pg.timers import TimerQueue
from bot.store.reviews import Reminder
from bot.tg.reminder_handlers import arm
from bot.tg.wire.timer_backends import PgTimers

PARIS = ZoneInfo("Europe/Paris")
# Saturday 2026-10-24, noon in Paris: summer time ends that night.
SATURDAY_NOON = datetime(2026, 10, 24, 12, 0, tzinfo=PARIS).timestamp()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def at(zone: ZoneInfo, day: int, hour: int, minute: int) -> float:
    return datetime(2026, 10, day, hour, minute, tzinfo=zone).timestamp()


async def test_a_learners_reminder_fires_once_at_their_local_time(pg_pool: asyncpg.Pool) -> None:
    clock = Clock(SATURDAY_NOON)
    one = PgTimers(TimerQueue(pg_pool, "worker-1"), clock)
    two = PgTimers(TimerQueue(pg_pool, "worker-2"), clock)
    sent: list[int] = []

    async def remind(user_id: int) -> None:
        sent.append(user_id)

    for timers in (one, two):
        timers.on("remind", remind)

    await arm(one, Reminder(42, "18:30", "America/New_York"))
    await arm(two, Reminder(42, "18:30", "Europe/Paris"))  # /timezone on another worker
    assert await one.queue.armed("remind:") == {"remind:42": at(PARIS, 24, 18, 30)}

    clock.now = at(PARIS, 24, 18, 30)
    claimed = [*await one.queue.claim_due(clock.now), *await two.queue.claim_due(clock.now)]
    assert len(claimed) == 1  # one worker has it
    await one.fire(claimed[0])
    await one.queue.fired(claimed[0])
    assert sent == [42]
    # The next day is after the change: still 18:30 in Paris, an hour later in UTC.
    after = await one.queue.armed("remind:")
    assert after == {"remind:42": at(PARIS, 25, 18, 30)}
    assert after["remind:42"] - at(PARIS, 24, 18, 30) == 25 * 3600
    await one.cancel("remind", 42)
