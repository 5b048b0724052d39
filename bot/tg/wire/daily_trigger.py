"""One process's daily timers (a group's schedule, a learner's reminder) as an APScheduler trigger.

PTB's `run_daily` uses APScheduler's cron trigger, which fires a wall time the clock change
repeats twice (02:30 in Paris on the last Sunday of October). This trigger, passed through
`JobQueue.run_custom` (APScheduler's documented seam for custom triggers), follows the rule the
workers' durable timers follow (bot/core/recurrence.py): a repeated wall time fires once, a
skipped one still fires.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from apscheduler.triggers.base import BaseTrigger  # type: ignore[import-untyped]

from bot.core.recurrence import next_daily


class DailyTrigger(BaseTrigger):  # type: ignore[misc]  # APScheduler ships no types
    """APScheduler's trigger for `hour:minute` in `tz` on `days` (0 = Monday), by the rule of
    bot/core/recurrence.py: a repeated wall time fires once, a skipped one still fires."""

    def __init__(self, at: tuple[int, int], tz: ZoneInfo, days: Sequence[int]) -> None:
        self.at, self.tz, self.days = at, tz, tuple(days)

    def get_next_fire_time(
        self, previous_fire_time: datetime | None, now: datetime
    ) -> datetime | None:
        after = now.timestamp()
        if previous_fire_time is not None:
            after = max(after, previous_fire_time.timestamp())
        due = next_daily(after, self.at[0], self.at[1], self.tz, self.days)
        return datetime.fromtimestamp(due, self.tz)
