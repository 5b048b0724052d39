"""A group's schedule across the clock changes of its time zone, as the one-process bot's
JobQueue fires it: 02:30 in Europe/Paris happens twice on the last Sunday of October and not at
all on the last Sunday of March. The rule (bot/core/recurrence.py, which the workers' durable
timers follow): a repeated wall time fires once, the first of the two; a skipped one fires as
many minutes after midnight as it says. Africa/Dakar keeps one offset all year."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.e2e.groups_kit import group_bot, make_group, schedule_jobs


def fire_times(trigger: object, start: datetime, count: int) -> list[str]:
    """The next `count` firings after `start`, as APScheduler asks its trigger (UTC)."""
    times: list[str] = []
    previous, now = None, start
    for _ in range(count):
        due = trigger.get_next_fire_time(previous, now)  # type: ignore[attr-defined]
        times.append(due.astimezone(UTC).strftime("%m-%d %H:%M"))
        previous, now = due, due + timedelta(milliseconds=1)
    return times


@pytest.mark.parametrize(
    ("zone", "start", "expected"),
    [
        # Paris falls back at 03:00 CEST: 02:30 is 00:30 UTC, then (again) 01:30 UTC: once.
        ("Europe/Paris", "2027-10-30T12:00", ["10-31 00:30", "11-01 01:30", "11-02 01:30"]),
        # Paris springs forward at 02:00 CET: no 02:30 that day; 150 minutes after midnight.
        ("Europe/Paris", "2027-03-27T12:00", ["03-28 01:30", "03-29 00:30", "03-30 00:30"]),
        ("Africa/Dakar", "2027-10-30T12:00", ["10-31 02:30", "11-01 02:30", "11-02 02:30"]),
    ],
)
async def test_a_schedule_plays_once_a_day_across_the_clock_change(
    tmp_path: Path, zone: str, start: str, expected: list[str]
) -> None:
    async with group_bot(tmp_path) as h:
        assert h.bot is not None
        group, admin = await make_group(h)
        for command in (f"/timezone {zone}", "/schedule next daily 02:30"):
            mark = group.mark()
            await admin.send(command, chat=group)
            await group.next_message(after=mark)
        (job,) = schedule_jobs(h.bot)
        begin = datetime.fromisoformat(start).replace(tzinfo=UTC)
        assert fire_times(job.job.trigger, begin, 3) == expected
