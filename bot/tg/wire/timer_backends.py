"""Timers of group runs, schedules and reminders: in PTB's JobQueue, or durable in PostgreSQL
(and, for tests, on a clock the caller moves: `ClockTimers`).

One process (SQLite) keeps PTB's JobQueue: jobs live in memory and start-up rebuilds them from
the store. Several workers (PostgreSQL) share `PgTimers`: a timer is a row keyed `kind:id`
(bot/store/pg/timers.py), fired by whichever worker claims it once due, again by another if that
worker died before finishing. Both are driven the same way: handlers registered per kind
(`on`), then `once`, `daily` and `cancel` by kind and id. Where one process and several
workers must differ, the timers say it (`guard`, `shared`, `arms_while_stopping`), so that
their users do not branch on the backend.

What each firing guarantees differs, and the handlers are written for it:
* a `once` timer fires at least once: its handler must be idempotent (a group run's handler
  resumes the run from what the store says, so a second firing finds nothing left to do);
* a `daily` timer is re-armed for its next day before its handler runs, so a worker dying in
  the handler skips that day's occurrence rather than running it twice (a scheduled quiz or a
  reminder is better missed once than doubled).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from telegram.ext import Application, CallbackContext, JobQueue

from bot.core.recurrence import MISSED_PLAYS_WITHIN, next_daily
from bot.observability import metrics
from bot.store.daily_dues import DailyDueStore
from bot.store.pg.timers import Timer, TimerQueue
from bot.tg.wire.daily_trigger import DailyTrigger
from bot.tg.wire.missed_dailies import DailyRule, MissedDailies

log = logging.getLogger(__name__)
Handler = Callable[..., Awaitable[object]]  # called with the timer's id, then its extra ints
Ctx = CallbackContext[Any, Any, Any, Any]


class ClockCtl(Protocol):
    """A clock that can be moved on (the tests' fake clock)."""

    def __call__(self) -> float: ...

    def advance(self, seconds: float) -> None: ...


class Timers:
    """The interface; `durable` says whether timers outlive the process that armed them."""

    durable = False

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}

    def on(self, kind: str, handler: Handler) -> None:
        self._handlers[kind] = handler

    async def _call(self, kind: str, args: Sequence[int], late: float | None = None) -> None:
        """Run the handler of `kind`; `late`: seconds past the timer's due time, if known."""
        metrics.timer_fired(kind, late)
        handler = self._handlers.get(kind)
        if handler is None:
            log.error("timer of unknown kind %r: dropped", kind)
            return
        await handler(*args)

    async def once(self, kind: str, ident: int, delay: float, *extra: int) -> None:
        raise NotImplementedError

    async def daily(
        self, kind: str, ident: int, at: tuple[int, int], timezone: str, days: Sequence[int]
    ) -> None:
        raise NotImplementedError

    async def cancel(self, kind: str, ident: int) -> None:
        raise NotImplementedError

    async def ensure(self, kind: str, ident: int, *extra: int) -> None:
        """A `once` timer due now unless one is armed already (start-up: durable timers only)."""
        raise NotImplementedError

    async def guard(self, kind: str, ident: int, delay: float, *extra: int) -> None:
        """A watchdog armed before a step that sends: if this process dies mid-step, its
        firing lets another worker resume from the store. Replaced (same `kind:id`) by the
        step's own timer once the step is done. Only durable timers can outlive the process."""
        raise NotImplementedError

    @property
    def shared(self) -> bool:
        """Whether another worker may fire a timer armed here, and so drive the step that
        follows it (a run's reveal): what only this process knows (a live count's next
        refresh) cannot be trusted to stay right."""
        return self.durable

    def arms_while_stopping(self) -> bool:
        """Whether a timer armed during a stop still fires: a durable row does; a JobQueue job
        dies with the process, and the next start rebuilds it from the store instead."""
        return self.durable


class JobTimers(Timers):
    """PTB's JobQueue: one process, timers in memory; daily timers' next moments kept in the
    store (`dues`), so an occurrence missed while the bot was down plays late
    (bot/tg/wire/missed_dailies.py)."""

    def __init__(self, app: Application, dues: DailyDueStore | None = None) -> None:  # type: ignore[type-arg]
        super().__init__()
        self.app = app
        self.missed = MissedDailies(dues, time.time)  # JobQueue fires on the wall clock

    @property
    def jobs(self) -> JobQueue[Any]:
        assert self.app.job_queue is not None, "install python-telegram-bot[job-queue]"
        return self.app.job_queue

    async def _job(self, context: Ctx) -> None:
        assert context.job is not None
        job = context.job.data
        assert isinstance(job, _Job)
        if job.rule is not None:  # its next moment kept first, as the other backends do
            await self.missed.firing(job.kind, job.args[0], job.rule)
        # A `once` timer knows when it was due (the monotonic clock); a daily one does not.
        late = time.monotonic() - job.due if job.due is not None else None
        await self._call(job.kind, job.args, late)

    async def once(self, kind: str, ident: int, delay: float, *extra: int) -> None:
        delay = max(0.0, delay)
        job = _Job(kind, (ident, *extra), time.monotonic() + delay)
        self.jobs.run_once(self._job, when=delay, data=job, name=f"{kind}:{ident}")

    async def daily(
        self, kind: str, ident: int, at: tuple[int, int], timezone: str, days: Sequence[int]
    ) -> None:
        rule = DailyRule.of(at, timezone, days)
        late = await self.missed.arming(kind, ident, rule)
        # No await from here on: two armings at once (a group's move heard twice) leave one job.
        self._cancel_jobs(kind, ident)
        if late is not None:  # the occurrence missed while down, once, now
            job = _Job(kind, (ident,), time.monotonic() - late)
            self.jobs.run_once(self._job, when=0.0, data=job, name=f"{kind}:{ident}")
        # Not `run_daily`: its cron trigger fires a wall time the clock change repeats twice
        # (02:30 in Paris on the last Sunday of October); the rule the workers follow fires once.
        self.jobs.run_custom(
            self._job,
            job_kwargs={"trigger": DailyTrigger(rule.at, ZoneInfo(timezone), rule.days)},
            data=_Job(kind, (ident,), None, rule),
            name=f"{kind}:{ident}",
        )

    def _cancel_jobs(self, kind: str, ident: int) -> None:
        for job in self.jobs.get_jobs_by_name(f"{kind}:{ident}"):
            job.schedule_removal()

    async def cancel(self, kind: str, ident: int) -> None:
        self._cancel_jobs(kind, ident)
        await self.missed.cancelled(kind, ident)

    async def ensure(self, kind: str, ident: int, *extra: int) -> None:
        if not self.jobs.get_jobs_by_name(f"{kind}:{ident}"):
            await self.once(kind, ident, 0.0, *extra)

    async def guard(self, kind: str, ident: int, delay: float, *extra: int) -> None:
        """Nothing: one process, so no other worker could resume the step if this one died."""


@dataclass(frozen=True, slots=True)
class _Job:
    """A JobQueue job's data: its handler's kind and arguments; a `once` timer's due moment on
    the monotonic clock; a daily timer's rule."""

    kind: str
    args: tuple[int, ...]
    due: float | None
    rule: DailyRule | None = None


class ClockTimers(Timers):
    """One process, like `JobTimers`, but due times are on an injected clock (the store's):
    nothing fires as real time passes; `advance` moves the clock and runs what came due, in
    due order, each handler to its end. Tests drive group runs with it instead of sleeping
    (tests/e2e/harness.py), on the same `on`/`once`/`daily`/`cancel`/`ensure`/`guard` calls
    as production. A timer armed already due fires at once, as a JobQueue job would."""

    def __init__(self, clock: ClockCtl, dues: DailyDueStore | None = None) -> None:
        super().__init__()
        self.clock = clock
        self.missed = MissedDailies(dues, clock)
        # A heap of (due, order, kind, id, args, daily: whether it is a daily timer's firing).
        self._due: list[tuple[float, int, str, int, tuple[int, ...], bool]] = []
        self._daily: dict[str, DailyRule] = {}
        self._order = itertools.count()  # equal due times fire in the order they were armed
        self._firing = asyncio.Lock()
        self._kicks: set[asyncio.Task[None]] = set()
        self._was_armed = asyncio.Event()
        self.closed = False

    def pending(self, kind: str | None = None) -> list[tuple[float, str]]:
        """(due time, `kind:id`) of the timers armed, soonest first; of one kind if given."""
        armed = sorted((due, f"{k}:{i}") for due, _, k, i, _, _ in self._due)
        return [(due, name) for due, name in armed if kind is None or name.startswith(f"{kind}:")]

    async def armed(self, kind: str) -> None:
        """Wait until a timer of `kind` is armed: a question's deadline is armed after its
        message was sent, so a test that saw the message waits for it before moving time."""
        while not self.pending(kind):
            self._was_armed.clear()
            await self._was_armed.wait()

    def _arm(
        self, due: float, kind: str, ident: int, args: tuple[int, ...], daily: bool = False
    ) -> None:
        heapq.heappush(self._due, (due, next(self._order), kind, ident, args, daily))
        self._was_armed.set()
        if due <= self.clock() and not self.closed:
            task = asyncio.get_running_loop().create_task(self.run_due())
            self._kicks.add(task)
            task.add_done_callback(self._kicks.discard)

    async def once(self, kind: str, ident: int, delay: float, *extra: int) -> None:
        self._arm(self.clock() + max(0.0, delay), kind, ident, (ident, *extra))

    async def daily(
        self, kind: str, ident: int, at: tuple[int, int], timezone: str, days: Sequence[int]
    ) -> None:
        rule = DailyRule.of(at, timezone, days)
        late = await self.missed.arming(kind, ident, rule)
        self._cancel_due(kind, ident)  # after the await, as `JobTimers.daily`
        self._daily[f"{kind}:{ident}"] = rule
        if late is not None:  # the occurrence missed while down, once, now
            self._arm(self.clock() - late, kind, ident, (ident,))
        self._arm(rule.next_after(self.clock()), kind, ident, (ident,), daily=True)

    def _cancel_due(self, kind: str, ident: int) -> None:
        self._daily.pop(f"{kind}:{ident}", None)
        self._due = [t for t in self._due if (t[2], t[3]) != (kind, ident)]
        heapq.heapify(self._due)

    async def cancel(self, kind: str, ident: int) -> None:
        self._cancel_due(kind, ident)
        await self.missed.cancelled(kind, ident)

    async def ensure(self, kind: str, ident: int, *extra: int) -> None:
        if not any((k, i) == (kind, ident) for _, _, k, i, _, _ in self._due):
            await self.once(kind, ident, 0.0, *extra)

    async def guard(self, kind: str, ident: int, delay: float, *extra: int) -> None:
        """Nothing: one process, as with `JobTimers`."""

    async def advance(self, seconds: float) -> None:
        """Time passes: `seconds` on the clock, stopping at each due time on the way to run
        its timer there (so a handler sees the clock at its due time, and what it arms is due
        from then, as in real time), soonest first; the clock then ends `seconds` on."""
        end = self.clock() + seconds
        await self._fire(until=end)
        self.clock.advance(max(0.0, end - self.clock()))

    async def run_due(self) -> None:
        """Run the timers due by the clock's now, one handler at a time, soonest first."""
        await self._fire(until=self.clock())

    async def _fire(self, until: float) -> None:
        async with self._firing:
            while self._due and self._due[0][0] <= until and not self.closed:
                due, _, kind, ident, args, daily = heapq.heappop(self._due)
                self.clock.advance(max(0.0, due - self.clock()))
                name = f"{kind}:{ident}"
                rule = self._daily.get(name) if daily else None
                if rule is not None:  # its next day first, as the other backends do
                    self._arm(rule.next_after(self.clock()), kind, ident, args, daily=True)
                    await self.missed.firing(kind, ident, rule)
                try:
                    await self._call(kind, args, self.clock() - due)
                except Exception:  # as a JobQueue job's: logged, and the other timers still fire
                    log.exception("timer %s failed", name)

    async def close(self) -> None:
        """The process stopped: its timers die with it (the next start rebuilds them from the
        store); a firing under way ends, and none begins."""
        self.closed = True
        self._due.clear()
        await asyncio.gather(*self._kicks)


class PgTimers(Timers):
    """Durable timers shared by every worker (fired through bot/workers/consumer.py)."""

    durable = True

    def __init__(self, queue: TimerQueue, clock: Callable[[], float]) -> None:
        super().__init__()
        self.queue, self.clock = queue, clock

    async def once(self, kind: str, ident: int, delay: float, *extra: int) -> None:
        payload = json.dumps({"kind": kind, "args": [ident, *extra]})
        await self.queue.arm(f"{kind}:{ident}", self.clock() + max(0.0, delay), payload)

    async def daily(
        self, kind: str, ident: int, at: tuple[int, int], timezone: str, days: Sequence[int]
    ) -> None:
        rule = {"at": list(at), "tz": timezone, "days": list(days)}
        payload = json.dumps({"kind": kind, "args": [ident], "daily": rule})
        now = self.clock()
        due = next_daily(now, at[0], at[1], ZoneInfo(timezone), days)
        # The same rule armed already keeps its moment, if it is not missed by too much.
        await self.queue.arm_daily(f"{kind}:{ident}", due, payload, now - MISSED_PLAYS_WITHIN)

    async def cancel(self, kind: str, ident: int) -> None:
        await self.queue.cancel(f"{kind}:{ident}")

    async def ensure(self, kind: str, ident: int, *extra: int) -> None:
        payload = json.dumps({"kind": kind, "args": [ident, *extra]})
        await self.queue.arm_if_absent(f"{kind}:{ident}", self.clock(), payload)

    async def guard(self, kind: str, ident: int, delay: float, *extra: int) -> None:
        await self.once(kind, ident, delay, *extra)

    async def fire(self, timer: Timer) -> None:
        """Run a due timer's handler (the worker loop deletes the timer afterwards)."""
        try:
            spec = json.loads(timer.payload)
            kind, args = str(spec["kind"]), [int(a) for a in spec["args"]]
        except (ValueError, KeyError, TypeError):
            log.error("timer %s has an unreadable payload: dropped", timer.key)
            return
        rule = spec.get("daily")
        if rule is not None:
            # The next occurrence first: a worker dying in the handler skips a day, never doubles.
            hour, minute = rule["at"]
            after = max(self.clock(), timer.due_at)
            due = next_daily(after, hour, minute, ZoneInfo(rule["tz"]), rule["days"])
            await self.queue.arm(timer.key, due, timer.payload)
            late = self.clock() - timer.due_at
            if late > MISSED_PLAYS_WITHIN:  # every worker was down at its time
                log.info("%s missed its time by %.0f min: it plays at its next", timer.key,
                         late / 60)  # fmt: skip
                return
        await self._call(kind, args, self.clock() - timer.due_at)
