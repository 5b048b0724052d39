"""Plays group runs on JobQueue timers: arms timers and has posts sent (in groups:
group_sends.py; what a run posts: group_post_handlers.py; an open question's live count:
group_live_handlers.py; scheduled pushes: group_schedule_handlers.py).

What happens when a run starts, when a question's time is up and on /stop, and in which order,
is the use case's (`bot/usecases/group_run_steps.py`, on `bot/usecases/group_runs.py`): this
module is its port (`RunPort`: render, send, arm a timer) and calls one step per event, under the
run's lock. What differs with several workers is the timers' (tg/wire/timer_backends.py).

Each question gets a one-shot timer; its deadline is in the store too, so a restart sets the
timer again (or reveals at once when the deadline passed while the bot was down). Schedules are
rebuilt from the store at start-up: JobQueue keeps jobs in memory only. With several workers the
timers are durable rows instead (tg/wire/timer_backends.py): a run's timer is armed before each
step, and its firing resumes the run from the store, whichever worker claims it.

Shutdown (`drain`): every step of a run (a timer's reveal and next question, a scheduled push,
a resumed run, the after-run hooks) is a tracked task. On stop no new timer is set, the steps in
flight get a bounded time to finish, and any still running are cancelled: each step is written
so that the store says where the run stood, and the next start resumes it from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram.ext import Application

from bot.core.group_run import GroupRun, Step
from bot.core.live_feedback import LivePolicy
from bot.core.models import Quiz
from bot.store import Schedule
from bot.tg.group_live_handlers import LiveCounts
from bot.tg.group_post_handlers import RunPosts
from bot.tg.group_schedule_handlers import ScheduledRuns
from bot.tg.group_sends import GroupSends
from bot.tg.topics import TopicGone
from bot.tg.wire.photos import PhotoSender
from bot.tg.wire.timer_backends import JobTimers, Timers
from bot.usecases import group_run_steps as steps
from bot.usecases import group_runs as runs
from bot.usecases.group_admins import AdminCache
from bot.usecases.group_schedules import GroupSchedules
from bot.usecases.group_settings import GroupSettingsCases

log = logging.getLogger(__name__)


@dataclass
class _Step:
    """How a run's step ended: `gone` when its forum topic refused a send."""

    gone: TopicGone | None = None


WATCHDOG = 20.0  # seconds: a durable run timer armed before a step, replaced when it is done


class GroupRunner(GroupSends):
    """Plays group runs: the use case's port, a run's lock, its timers and the steps in flight;
    it sends as `GroupSends` (group_sends.py), what a run posts is `RunPosts`
    (group_post_handlers.py), its open questions' live counts are `LiveCounts`
    (group_live_handlers.py), its schedules `ScheduledRuns` (group_schedule_handlers.py)."""

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        runs: runs.GroupRuns,
        settings: GroupSettingsCases,
        schedules: GroupSchedules,
        admins: AdminCache,
        timers: Timers | None = None,
        live: LivePolicy | None = None,
        photos: PhotoSender | None = None,
        watchdog: float = WATCHDOG,
    ) -> None:
        super().__init__(app, photos)
        # Durable timers: how long after a step began another worker resumes the run if this
        # one died. An early resume is harmless (a question's send-once, `_releasing`), a late
        # one leaves a group waiting: the default outlasts a paced send's wait for its slots.
        self.watchdog = watchdog
        self.live = live or LivePolicy()  # how often an open question shows its count
        # Question deadlines and schedules: PTB's JobQueue, or durable rows shared by workers.
        self.timers = timers if timers is not None else JobTimers(app)
        # A shared timer may fire again after a worker died mid-step, or while another drives
        # the run: its firing resumes the run from what the store says. A JobQueue timer fires
        # once, in this process: it is the deadline of its question.
        self.timers.on("run", self._on_resume if self.timers.shared else self._on_deadline)
        self.runs = runs
        self.steps = steps.GroupRunSteps(runs, self)  # the order of a run's steps
        self.settings = settings
        self.schedules = schedules
        self.admins = admins
        self._locks: dict[int, asyncio.Lock] = {}
        # Called as a task with (run id, chat id) once a run's results are posted.
        self.on_finished: list[Callable[[int, int], Coroutine[Any, Any, object]]] = []
        self.on_moved: list[Callable[[int, int], None]] = []  # (old chat id, new chat id)
        self.stopping = False
        self._steps: set[asyncio.Task[Any]] = set()
        self.counts = LiveCounts(self, runs, self.live, self._locks, self._lang)
        self.posts = RunPosts(self, self.counts, self._lang)
        self.scheduled = ScheduledRuns(
            self.timers,
            schedules,
            settings,
            runs,
            play=self.play,
            send=self.send,
            guarded=self._guarded,
            may_arm=self._may_arm,
        )

    def _lock(self, run_id: int) -> asyncio.Lock:
        return self._locks.setdefault(run_id, asyncio.Lock())

    async def _lang(self, chat_id: int) -> str:
        return (await self.settings.settings(chat_id)).language

    # -- a run --------------------------------------------------------------------------------

    async def play(self, started: runs.Started) -> bool:
        """A run just started: its intro, then the first question. False if its forum topic
        is closed or deleted (the run ended at once)."""
        run = started.run
        async with self._lock(run.id), self._in_topic(run.id) as step:
            await self.steps.start(run, started.quiz)
        return step.gone is None

    @contextlib.asynccontextmanager
    async def _in_topic(self, run_id: int) -> AsyncIterator[_Step]:
        """A run's step: if its forum topic was closed or deleted, the run ends there, its
        answers so far kept, with one log line: nobody can read a word in that topic, and
        each send would be refused again."""
        step = _Step()
        try:
            yield step
        except TopicGone as gone:
            step.gone = gone
            await self._cancel_timers(run_id)
            self._locks.pop(run_id, None)
            results = await self.runs.finish(run_id, stopped=True)
            log.info("group run %s ended: %s", run_id, gone)
            if results is not None:
                for hook in self.on_finished:
                    self._spawn(hook(run_id, results.run.chat_id))

    async def _ask(self, run: GroupRun, index: int) -> None:
        """Ask question `index`: its order is the use case's (usecases/group_run_steps.py)."""
        await self.steps.ask(run, index)

    # -- the use case's port (usecases/group_run_steps.py RunPort) ------------------------------

    async def guard(self, run_id: int, index: int) -> None:
        """The run's watchdog before a step (tg/wire/timer_backends.py `guard`). Far enough
        ahead that it does not fire while this worker is still sending (a paced send can wait
        seconds for its slot); if it did, the other worker's opening would supersede this one
        (`_releasing`): still one copy of the question."""
        if self._may_arm():
            await self.timers.guard("run", run_id, self.watchdog, index)

    async def arm(self, run_id: int, index: int, delay: float) -> None:
        await self._set_timer(run_id, index, delay)

    async def cancel(self, run_id: int) -> None:
        await self._cancel_timers(run_id)

    async def send_intro(self, run: GroupRun, quiz: Quiz) -> bool:
        return await self.posts.intro(run, quiz)

    async def send_question(
        self, run: GroupRun, quiz: Quiz, index: int, release: steps.Release
    ) -> steps.Asked:
        """Render question `index` and send it; `release` is awaited as the request leaves."""
        return await self.posts.question(run, quiz, index, release)

    def show_live(self, run: GroupRun, index: int) -> None:
        """Not with shared timers: another worker may reveal the question, and a late refresh
        there would put the buttons back on the reveal."""
        if not self.timers.shared and not self.stopping:
            self.counts.start(run, index)

    async def show_reveal(self, reveal: runs.Reveal) -> None:
        await self.posts.reveal(reveal)

    async def show_unattended(self, run: GroupRun) -> None:
        await self.posts.unattended(run)

    async def show_results(self, results: runs.RunResults | None, *, stopped: bool) -> None:
        """The results, then the after-run hooks (the run's lock goes first: it is over)."""
        if results is None:
            return
        self._locks.pop(results.run.id, None)
        await self.posts.results(results, stopped=stopped)
        for hook in self.on_finished:
            self._spawn(hook(results.run.id, results.run.chat_id))

    # -- steps in flight, for a clean stop ------------------------------------------------------

    def _spawn(self, step: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a step as a task the stop waits for (errors go to the error handler, as before)."""
        task: asyncio.Task[Any] = self.app.create_task(step)
        self._steps.add(task)
        task.add_done_callback(self._steps.discard)
        return task

    async def _guarded(self, step: Coroutine[Any, Any, Any]) -> None:
        """A job's step: if the stop cancels it, the job itself ends quietly (no traceback)."""
        task = self._spawn(step)
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.cancelled():
                raise
            log.info("a group step was stopped by the shutdown; it resumes at the next start")

    async def drain(self, grace: float) -> None:
        """Stop: no new timers; let the steps in flight (and those they start) finish within
        `grace` seconds, then cancel the rest."""
        self.stopping = True
        self.counts.cancel()  # refreshes are optional: nothing to wait for
        deadline = asyncio.get_running_loop().time() + grace
        while pending := {t for t in self._steps if not t.done()}:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                log.warning(
                    "stopping: %d group steps still running after %.0f s, cancelled; "
                    "they resume at the next start",
                    len(pending),
                    grace,
                )
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                return
            log.info("stopping: waiting for %d group steps", len(pending))
            await asyncio.wait(pending, timeout=remaining)

    def _may_arm(self) -> bool:
        """False during a stop if the timer would die with the process: the store holds the
        deadline or schedule, and the next start sets the timer from it."""
        return not self.stopping or self.timers.arms_while_stopping()

    async def _set_timer(self, run_id: int, index: int, delay: float) -> None:
        if self._may_arm():
            await self.timers.once("run", run_id, delay, index)

    async def _on_deadline(self, run_id: int, index: int) -> None:
        await self._guarded(self.advance(run_id, index))

    async def _on_resume(self, run_id: int, index: int) -> None:
        await self._guarded(self.resume(run_id))

    async def advance(self, run_id: int, index: int) -> None:
        """Time is up for question `index`: the use case's step, under the run's lock."""
        async with self._lock(run_id), self._in_topic(run_id):
            await self.steps.time_up(run_id, index)

    async def _cancel_timers(self, run_id: int) -> None:
        await self.timers.cancel("run", run_id)

    async def stop(self, chat_id: int, thread_id: int = 0) -> bool:
        """/stop in topic `thread_id`: reveal its run's open question, then post the results so
        far. False if none ran there."""
        run = await self.runs.active_run(chat_id, thread_id)
        if run is None:
            return False
        async with self._lock(run.id), self._in_topic(run.id):
            await self.steps.stop(run.id)
        return True

    async def restore(self) -> None:
        """Resume every run the store says is active, each from where it stood."""
        for plan in await self.runs.resume_plan():
            if self.timers.shared:
                # Another worker may be driving it: only make sure a timer will resume it.
                await self.timers.ensure("run", plan.run.id, plan.index)
                continue
            log.info("resuming group run %s: %s question %s", plan.run.id, plan.step, plan.index)
            if plan.step is Step.WAIT:
                await self._set_timer(plan.run.id, plan.index, plan.delay)
            else:
                self._spawn(self.resume(plan.run.id, plan))

    async def resume(self, run_id: int, plan: runs.Resume | None = None) -> None:
        """Take a run to its next step from what the store says (a durable timer fired, or a
        restart found it active: `plan`), under the run's lock: the use case's step."""
        async with self._lock(run_id), self._in_topic(run_id):
            await self.steps.resume(run_id, plan)

    # -- the group itself -----------------------------------------------------------------------

    async def removed(self, chat_id: int) -> None:
        for run in await self.runs.active_runs(chat_id):
            await self._cancel_timers(run.id)
        self.runs.forget_chat(chat_id)
        for schedule_id in await self.settings.left(chat_id):
            await self.unregister(schedule_id)
        self.admins.forget_chat(chat_id)

    async def migrated(self, old_id: int, new_id: int) -> None:
        await self.settings.migrate(old_id, new_id)
        await self.runs.moved(old_id, new_id)
        for hook in self.on_moved:  # e.g. the group's own quizzes follow it
            hook(old_id, new_id)
        self.admins.forget_chat(old_id)
        await self.reschedule(new_id)

    # -- schedules (group_schedule_handlers.py) --------------------------------------------------

    async def register(self, schedule: Schedule, timezone: str) -> None:
        await self.scheduled.register(schedule, timezone)

    async def unregister(self, schedule_id: int) -> None:
        await self.scheduled.unregister(schedule_id)

    async def reschedule(self, chat_id: int | None = None) -> None:
        """(Re)build the jobs of a group's schedules, or of every group's at start-up."""
        await self.scheduled.reschedule(chat_id)
