"""Timers on the tests' fake clock (bot/tg/wire/timer_backends.py `ClockTimers`): nothing fires
as real time passes; moving the clock fires what came due, in due order, through the same
calls as production's backends. The end-to-end group tests lean on it, so it is held here."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.tg.wire.timer_backends import ClockTimers
from tests.e2e.harness import FakeClock

DAKAR = ZoneInfo("Africa/Dakar")


def recording(timers: ClockTimers, *kinds: str) -> list[tuple[str, float, tuple[int, ...]]]:
    """Handlers for `kinds` that note (kind, clock's time, arguments) when they run."""
    fired: list[tuple[str, float, tuple[int, ...]]] = []
    for kind in kinds:

        async def handler(*args: int, kind: str = kind) -> None:
            fired.append((kind, timers.clock(), args))

        timers.on(kind, handler)
    return fired


async def test_nothing_fires_until_the_clock_moves_then_in_due_order() -> None:
    clock = FakeClock(now=1000.0)
    timers = ClockTimers(clock)
    fired = recording(timers, "run", "exam")
    await timers.once("run", 7, 30, 2)
    await timers.once("exam", 3, 10, 1, 99)
    await timers.once("run", 8, 10)  # due with exam 3: after it, as it was armed after
    await asyncio.sleep(0)
    assert fired == []
    await timers.advance(20)
    assert fired == [("exam", 1010.0, (3, 1, 99)), ("run", 1010.0, (8,))]
    assert clock() == 1020.0
    await timers.advance(10)
    assert fired[2:] == [("run", 1030.0, (7, 2))]
    assert timers.pending() == []


async def test_time_stops_at_each_due_time_so_a_chain_of_timers_plays_as_in_real_time() -> None:
    clock = FakeClock(now=0.0)
    timers = ClockTimers(clock)
    fired: list[tuple[int, float]] = []

    async def question(run_id: int, index: int) -> None:
        fired.append((index, clock()))
        await timers.once("run", run_id, 5, index + 1)  # the next question's deadline

    timers.on("run", question)
    await timers.once("run", 1, 5, 0)
    await timers.advance(12)  # deadlines at 5 and 10 pass; the one at 15 is not due yet
    assert fired == [(0, 5.0), (1, 10.0)]
    assert timers.pending("run") == [(15.0, "run:1")] and clock() == 12.0


async def test_cancel_ensure_and_a_timer_already_due_firing_by_itself() -> None:
    clock = FakeClock(now=0.0)
    timers = ClockTimers(clock)
    fired = recording(timers, "run", "sched")
    await timers.once("run", 1, 5, 0)
    await timers.once("run", 2, 5, 0)
    await timers.cancel("run", 1)
    await timers.ensure("run", 2, 4)  # armed already: not again
    assert timers.pending() == [(5.0, "run:2")]
    await timers.ensure("run", 3, 1)  # none armed: due now, fires without the clock moving
    for _ in range(5):
        await asyncio.sleep(0)
    assert fired == [("run", 0.0, (3, 1))]
    await timers.guard("run", 4, 20, 0)  # one process: no watchdog to arm
    await timers.advance(5)
    assert fired[1:] == [("run", 5.0, (2, 0))]


async def test_a_daily_timer_fires_at_its_wall_time_and_is_armed_for_its_next_day() -> None:
    monday_noon = datetime(2026, 12, 7, 12, 0, tzinfo=DAKAR).timestamp()
    clock = FakeClock(now=monday_noon)
    timers = ClockTimers(clock)
    fired = recording(timers, "sched")
    await timers.daily("sched", 4, (18, 30), "Africa/Dakar", [0, 2])  # Monday and Wednesday
    await timers.daily("sched", 4, (18, 30), "Africa/Dakar", [0, 2])  # set again: still one
    await timers.advance(7 * 3600)
    assert fired == [("sched", monday_noon + 6.5 * 3600, (4,))]
    wednesday = datetime(2026, 12, 9, 18, 30, tzinfo=DAKAR).timestamp()
    assert timers.pending() == [(wednesday, "sched:4")]
    await timers.cancel("sched", 4)
    await timers.advance(7 * 86400)
    assert len(fired) == 1 and timers.pending() == []


async def test_a_failing_handler_is_logged_and_the_others_still_fire(
    caplog: pytest.LogCaptureFixture,
) -> None:
    timers = ClockTimers(FakeClock(now=0.0))
    fired = recording(timers, "sched")

    async def broken(run_id: int) -> None:
        raise RuntimeError("boom")

    timers.on("run", broken)
    await timers.once("run", 1, 1)
    await timers.once("sched", 2, 2)
    with caplog.at_level(logging.ERROR):
        await timers.advance(3)
    assert fired == [("sched", 2.0, (2,))]
    assert "timer run:1 failed" in caplog.text


async def test_once_closed_nothing_fires_any_more() -> None:
    timers = ClockTimers(FakeClock(now=0.0))
    fired = recording(timers, "run")
    await timers.once("run", 1, 1)
    await timers.close()
    await timers.once("run", 2, 0)  # armed during a stop: dies with the process
    await timers.advance(10)
    assert fired == [] and timers.closed
