"""Plays group runs on JobQueue timers and fires scheduled pushes: arms timers and sends.

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
import math
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram import Bot, Message
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import Application, ExtBot

from bot.core.group_run import GroupRun, Step
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.live_feedback import LivePolicy, live_steps
from bot.core.models import Quiz
from bot.core.schedule import decode_days
from bot.i18n import Translator, translator
from bot.store import Schedule
from bot.tg import group_render as gr
from bot.tg import standings_render as sr
from bot.tg.private_render import Screen, truncate
from bot.tg.topics import TopicGone, reply_thread, topic_gone
from bot.tg.wire import calls
from bot.tg.wire.captions import as_caption, fits_caption
from bot.tg.wire.photos import PhotoSender, send_screen
from bot.tg.wire.retry import Courtesy, LimitArgs, OnWire
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


class Superseded(Exception):
    """A question's send was stopped before it left: another worker opened it again."""


WATCHDOG = 20.0  # seconds: a durable run timer armed before a step, replaced when it is done


class GroupRunner:
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
        self.app = app
        # Durable timers: how long after a step began another worker resumes the run if this
        # one died. An early resume is harmless (a question's send-once, `_releasing`), a late
        # one leaves a group waiting: the default outlasts a paced send's wait for its slots.
        self.watchdog = watchdog
        self.photos = photos  # content pictures (bot/tg/wire/photos.py); None: text only
        self.live = live or LivePolicy()  # how often an open question shows its count
        self._live_tasks: set[asyncio.Task[Any]] = set()
        # Question deadlines and schedules: PTB's JobQueue, or durable rows shared by workers.
        self.timers = timers if timers is not None else JobTimers(app)
        # A shared timer may fire again after a worker died mid-step, or while another drives
        # the run: its firing resumes the run from what the store says. A JobQueue timer fires
        # once, in this process: it is the deadline of its question.
        self.timers.on("run", self._on_resume if self.timers.shared else self._on_deadline)
        self.timers.on("sched", self._on_schedule)
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

    @property
    def bot(self) -> Bot:
        bot: Bot = self.app.bot
        return bot

    @property
    def ext_bot(self) -> ExtBot[LimitArgs]:
        """The bot with PTB's extensions: `rate_limit_args` reaches the rate limiter."""
        bot = self.app.bot
        assert isinstance(bot, ExtBot)
        return bot

    def _lock(self, run_id: int) -> asyncio.Lock:
        return self._locks.setdefault(run_id, asyncio.Lock())

    async def _lang(self, chat_id: int) -> str:
        return (await self.settings.settings(chat_id)).language

    # -- sending, with the two ways a group can go away --------------------------------------

    async def send(
        self,
        chat_id: int,
        screen: Screen,
        on_wire: OnWire | None = None,
        *,
        courtesy: bool = False,
        thread: int | None = None,
    ) -> int | None:
        """Post in a group (the id of the message with the screen's buttons); follow the group
        to its supergroup, or forget it if the bot was removed. `on_wire` runs just before the
        request leaves (bot/tg/wire/retry.py); a `courtesy` reply goes after the run's sends and
        raises `Shed` if the group's budget is short (bot/tg/wire/ratelimit.py).

        `thread`: the forum topic (0: none), as a run or a schedule names its own; a closed or
        deleted topic raises `TopicGone` for the caller to end what played there. None: a
        reply to the update being handled, in its topic (bot/tg/topics.py); a gone topic is
        then one log line (nobody is there to read it)."""
        limit: LimitArgs | None = Courtesy() if courtesy else on_wire
        place = reply_thread(chat_id) if thread is None else thread
        try:
            try:
                return await self._post(chat_id, screen, limit, place)
            except ChatMigrated as exc:
                new_id = exc.new_chat_id
                await self.migrated(chat_id, new_id)
                return await self._post(new_id, screen, limit, place)
            except Forbidden:
                log.info("removed from chat %s: stopping what ran there", chat_id)
                await self.removed(chat_id)
                return None
            except BadRequest as exc:
                if place and topic_gone(exc):
                    raise TopicGone(chat_id, place, str(exc)) from None
                raise
        except TopicGone as gone:
            if thread is not None:
                raise
            log.info("reply not sent: %s", gone)
            return None

    async def _post(
        self, chat_id: int, screen: Screen, limit: LimitArgs | None, thread: int
    ) -> int:
        if screen.photo is not None and self.photos is not None:
            on_wire = limit if isinstance(limit, OnWire) else None
            return await send_screen(self.bot, chat_id, screen, self.photos, on_wire, thread=thread)
        message: Message = await self.ext_bot.send_message(
            chat_id,
            screen.text,
            reply_markup=screen.keyboard,
            rate_limit_args=limit,
            message_thread_id=thread or None,
        )
        return message.message_id

    async def _edit(
        self, chat_id: int, message_id: int | None, screen: Screen, thread: int
    ) -> None:
        """Edit a run's message in place; if it is gone, post the screen in topic `thread`."""
        try:
            if message_id is None:
                raise BadRequest("message to edit not found")
            bot, shown = self.bot, message_id
            await calls.edit_text(bot, chat_id, shown, screen.text, screen.keyboard)
        except ChatMigrated as exc:
            await self.migrated(chat_id, exc.new_chat_id)
            await self.send(exc.new_chat_id, screen, thread=thread)
        except BadRequest as exc:
            # The question message is gone (deleted, or never stored): post the reveal instead
            # (said after it went: a deleted topic takes neither, and ends the run with one line).
            await self.send(chat_id, screen, thread=thread)
            log.info("edit refused in %s: %s", chat_id, exc)

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
        lang = await self._lang(run.chat_id)
        intro = gr.intro(translator(lang), quiz, run, lang)
        return await self.send(run.chat_id, intro, thread=run.thread_id) is not None

    async def send_question(
        self, run: GroupRun, quiz: Quiz, index: int, release: steps.Release
    ) -> steps.Asked:
        """Render question `index` and send it; `release` is awaited as the request leaves."""
        lang = await self._lang(run.chat_id)
        screen = self._asked(translator(lang), quiz, run, index, lang)
        try:
            on_wire = OnWire(self._releasing(run, release))
            message_id = await self.send(run.chat_id, screen, on_wire, thread=run.thread_id)
        except Superseded:
            return steps.Superseded()
        except TelegramError as exc:
            return steps.NotSent(str(exc))
        return steps.Removed() if message_id is None else steps.Sent(message_id)

    def show_live(self, run: GroupRun, index: int) -> None:
        self._start_live(run, index)

    async def show_reveal(self, reveal: runs.Reveal) -> None:
        await self._show(reveal)

    async def show_unattended(self, run: GroupRun) -> None:
        tr = translator(await self._lang(run.chat_id))
        await self.send(run.chat_id, Screen(gr.unattended(tr)), thread=run.thread_id)

    async def show_results(self, results: runs.RunResults | None, *, stopped: bool) -> None:
        await self._post_results(results, stopped=stopped)

    def _releasing(
        self, run: GroupRun, release: steps.Release
    ) -> Callable[[], Coroutine[Any, Any, None]]:
        """The question's send is leaving: record it first (send-once, bot/core/group_run.py
        resume_step); if another worker opened the question again meanwhile, do not send."""

        async def leaving() -> None:
            if not await release():
                raise Superseded(run.id)

        return leaving

    # -- the live count of an open question -----------------------------------------------------

    def _start_live(self, run: GroupRun, index: int) -> None:
        """Refresh the question at the planned steps. Not with shared timers: another worker
        may reveal it, and a late refresh there would put the buttons back on the reveal."""
        steps = live_steps(run.seconds, self.live)
        if not steps or self.timers.shared or self.stopping:
            return
        # A task of the loop's own, not PTB's create_task: that one wraps the coroutine in
        # another, and a refresh cancelled at stop before it began left its coroutine "never
        # awaited" (a RuntimeWarning, an error under the tests' -W error).
        task = asyncio.get_running_loop().create_task(self._live(run.id, index, steps))
        self._live_tasks.add(task)
        task.add_done_callback(self._live_done)

    def _live_done(self, task: asyncio.Task[Any]) -> None:
        self._live_tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.warning("live count stopped: %s: %s", type(exc).__name__, exc)

    async def _live(self, run_id: int, index: int, steps: list[float]) -> None:
        """At each step, one edit if the count changed since the last one shown; none per tap.
        Under the run's lock, so no refresh can land after the reveal."""
        loop = asyncio.get_running_loop()
        began, shown = loop.time(), 0
        for offset in steps:
            await asyncio.sleep(max(0.0, began + offset - loop.time()))
            lock = self._locks.get(run_id)
            if lock is None:
                return  # the run ended
            async with lock:
                live = await self.runs.live(run_id, index)
                if live is None:
                    return  # revealed or stopped
                if live.answered == shown or live.run.message_id is None:
                    continue
                shown = live.answered
                lang = await self._lang(live.run.chat_id)
                tr = translator(lang)
                question = gr.question(tr, live.quiz, live.run, index, lang)
                screen = gr.live_question(question, tr, live.answered, live.seconds_left)
                captioned = self._captioned(tr, live.quiz, live.run, index, lang)
                edit = calls.edit_caption if captioned else calls.edit_text
                try:
                    await edit(
                        self.bot,
                        live.run.chat_id,
                        live.run.message_id,
                        screen.text,
                        screen.keyboard,
                    )
                except TelegramError as exc:  # a refresh is optional: never re-posted
                    log.info("live count of run %s not shown: %s", run_id, exc)

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
        for task in self._live_tasks:  # refreshes are optional: nothing to wait for
            task.cancel()
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

    def _asked(self, tr: Translator, quiz: Quiz, run: GroupRun, index: int, lang: str) -> Screen:
        """The question as `_ask` sends it."""
        question = gr.question(tr, quiz, run, index, lang)
        return gr.live_question(question, tr, 0, math.ceil(run.seconds))

    def _captioned(self, tr: Translator, quiz: Quiz, run: GroupRun, index: int, lang: str) -> bool:
        """Whether the question went out as a captioned photo (bot/tg/wire/photos.py), decided from
        the screen `_ask` sent, so that every later edit picks the same method."""
        sent = self._asked(tr, quiz, run, index, lang)
        return self.photos is not None and as_caption(sent.text, sent.photo)

    async def _show(self, reveal: runs.Reveal) -> None:
        lang = await self._lang(reveal.run.chat_id)
        tr, run, chat_id = translator(lang), reveal.run, reveal.run.chat_id
        screen = gr.reveal(tr, reveal.quiz, run, reveal.index, reveal.counts, lang, reveal.answers)
        if not self._captioned(tr, reveal.quiz, run, reveal.index, lang):
            await self._edit(chat_id, run.message_id, screen, run.thread_id)
        elif run.message_id is not None and fits_caption(screen.text):
            await self._edit_caption(chat_id, run.message_id, screen, run.thread_id)
        else:  # too long for a caption: the photo loses its buttons, the reveal follows it
            if run.message_id is not None:
                with contextlib.suppress(BadRequest):
                    await calls.drop_keyboard(self.bot, chat_id, run.message_id)
            await self.send(chat_id, screen, thread=run.thread_id)
        pictured = reveal.quiz.questions[reveal.index].explanation_image
        if pictured is not None:  # the explanation's picture follows the reveal
            picture = Screen("", photo=pictured.file(lang), alt=pictured.alt.get(lang))
            await self.send(chat_id, picture, thread=run.thread_id)

    async def _edit_caption(
        self, chat_id: int, message_id: int, screen: Screen, thread: int
    ) -> None:
        try:
            await calls.edit_caption(self.bot, chat_id, message_id, screen.text, screen.keyboard)
        except ChatMigrated as exc:
            await self.migrated(chat_id, exc.new_chat_id)
            await self.send(exc.new_chat_id, screen, thread=thread)
        except BadRequest as exc:
            if "no caption" in str(exc).lower():
                # The picture could not be sent and its alt text went as a text: edit that.
                await self._edit(chat_id, message_id, screen, thread)
                return
            log.info("caption edit refused in %s: %s", chat_id, exc)
            await self.send(chat_id, screen, thread=thread)

    async def _post_results(self, results: runs.RunResults | None, *, stopped: bool) -> None:
        if results is None:
            return
        self._locks.pop(results.run.id, None)
        lang = await self._lang(results.run.chat_id)
        asked = results.run.current + 1 if stopped else None  # a stopped run: what was asked
        tr = translator(lang)
        standing = results.standing
        screen = gr.results(
            tr,
            results.quiz,
            results.top,
            results.players,
            lang,
            stopped=stopped,
            asked=asked,
            points=lambda user_id: sr.run_points(tr, standing, user_id),
        )
        if results.standing is not None:
            footer = sr.run_footer(tr, results.standing)
            text = truncate(f"{screen.text}\n\n{footer}", MESSAGE_MAX_CHARS)
            screen = Screen(text, screen.keyboard)
        run = results.run
        try:
            await self.send(run.chat_id, screen, thread=run.thread_id)
        except TopicGone as gone:  # the run is over anyway: its hooks still run
            log.info("results of group run %s not posted: %s", run.id, gone)
        for hook in self.on_finished:
            self._spawn(hook(results.run.id, results.run.chat_id))

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
        self.runs.moved(old_id, new_id)
        for hook in self.on_moved:  # e.g. the group's own quizzes follow it
            hook(old_id, new_id)
        self.admins.forget_chat(old_id)
        await self.reschedule(new_id)

    # -- schedules ------------------------------------------------------------------------------

    async def register(self, schedule: Schedule, timezone: str) -> None:
        if not self._may_arm():
            return  # schedules live in the store: the next start registers them
        hour, minute = (int(part) for part in schedule.at_time.split(":"))
        await self.timers.daily(
            "sched", schedule.id, (hour, minute), timezone, decode_days(schedule.days)
        )

    async def unregister(self, schedule_id: int) -> None:
        await self.timers.cancel("sched", schedule_id)

    async def reschedule(self, chat_id: int | None = None) -> None:
        """(Re)build the jobs of a group's schedules, or of every group's at start-up."""
        for schedule in await self.schedules.listed(chat_id):
            settings = await self.settings.settings(schedule.chat_id)
            await self.register(schedule, settings.timezone)

    async def _on_schedule(self, schedule_id: int) -> None:
        await self._guarded(self._scheduled(schedule_id))

    async def _scheduled(self, schedule_id: int) -> None:
        schedule = await self.schedules.schedule(schedule_id)
        if schedule is None:
            await self.unregister(schedule_id)
            return
        chat_id, thread = schedule.chat_id, schedule.thread_id
        match await self.runs.start(chat_id, None, schedule.quiz, thread):
            case runs.Started() as started:
                if await self.play(started):
                    if schedule.topic_gone:  # open again: a later closing is told again
                        await self.schedules.topic_gone(schedule.id, False)
                elif await self.schedules.topic_gone(schedule.id):
                    await self._tell_topic_gone(schedule)
                else:
                    log.info("schedule %s: its topic is still closed or deleted", schedule.id)
            case runs.Busy():
                tr = translator(await self._lang(chat_id))
                skipped = tr._("⏰ A scheduled quiz was skipped: another quiz is still running.")
                try:
                    await self.send(chat_id, Screen(skipped), thread=thread)
                except TopicGone as gone:
                    log.info("schedule %s: skip notice not posted: %s", schedule.id, gone)
            case runs.UnknownQuiz():
                log.warning("schedule %s: quiz %r no longer exists", schedule.id, schedule.quiz)
            case runs.NothingToAsk():
                log.info(
                    "schedule %s: quiz %r has only typed questions", schedule.id, schedule.quiz
                )

    async def _tell_topic_gone(self, schedule: Schedule) -> None:
        """Once (until its topic takes a run again): in General, where the admins can read it,
        that the schedule's topic refused its quiz, and how to remove it."""
        listed = await self.schedules.listed(schedule.chat_id)
        number = next((n for n, s in enumerate(listed, 1) if s.id == schedule.id), 0)
        tr = translator(await self._lang(schedule.chat_id))
        text = gr.schedule_topic_gone(tr, number, schedule)
        try:
            await self.send(schedule.chat_id, Screen(text), thread=0)
        except TopicGone as gone:  # General cannot be closed; a guard all the same
            log.info("schedule %s: notice not posted: %s", schedule.id, gone)
