"""Plays group runs on JobQueue timers and fires scheduled pushes.

Each question gets a one-shot timer; its deadline is in the store too, so a restart sets the
timer again (or reveals at once when the deadline passed while the bot was down). Schedules are
rebuilt from the store at start-up: JobQueue keeps jobs in memory only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import time as dtime
from typing import Any
from zoneinfo import ZoneInfo

from telegram import Bot, Message
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import Application, CallbackContext, JobQueue

from bot.core.group_run import GroupRun, Step, resume_step
from bot.core.models import Quiz
from bot.core.schedule import decode_days, ptb_days
from bot.i18n import translator
from bot.store import Schedule
from bot.tg import calls
from bot.tg import group_render as gr
from bot.tg.render import Screen
from bot.tg.retry import patiently
from bot.usecases.group_admins import AdminCache
from bot.usecases.group_runs import GroupService, Reveal

log = logging.getLogger(__name__)
Ctx = CallbackContext[Any, Any, Any, Any]


class GroupRunner:
    def __init__(self, app: Application, service: GroupService, admins: AdminCache) -> None:  # type: ignore[type-arg]
        self.app = app
        self.service = service
        self.admins = admins
        self._locks: dict[int, asyncio.Lock] = {}
        # Called as a task with (run id, chat id) once a run's results are posted.
        self.on_finished: list[Callable[[int, int], Awaitable[object]]] = []

    @property
    def bot(self) -> Bot:
        bot: Bot = self.app.bot
        return bot

    @property
    def jobs(self) -> JobQueue[Any]:
        assert self.app.job_queue is not None, "install python-telegram-bot[job-queue]"
        return self.app.job_queue

    def _lock(self, run_id: int) -> asyncio.Lock:
        return self._locks.setdefault(run_id, asyncio.Lock())

    async def _lang(self, chat_id: int) -> str:
        return (await self.service.settings(chat_id)).language

    # -- sending, with the two ways a group can go away --------------------------------------

    async def send(self, chat_id: int, screen: Screen) -> Message | None:
        """Post in a group; follow it to its supergroup, or forget it if the bot was removed."""
        try:
            return await patiently(
                lambda: self.bot.send_message(chat_id, screen.text, reply_markup=screen.keyboard)
            )
        except ChatMigrated as exc:
            new_id = exc.new_chat_id
            await self.migrated(chat_id, new_id)
            return await patiently(
                lambda: self.bot.send_message(new_id, screen.text, reply_markup=screen.keyboard)
            )
        except Forbidden:
            log.info("removed from chat %s: stopping what ran there", chat_id)
            await self.removed(chat_id)
            return None

    async def _edit(self, chat_id: int, message_id: int | None, screen: Screen) -> None:
        try:
            if message_id is None:
                raise BadRequest("message to edit not found")
            bot, shown = self.bot, message_id
            await patiently(
                lambda: calls.edit_text(bot, chat_id, shown, screen.text, screen.keyboard)
            )
        except ChatMigrated as exc:
            await self.migrated(chat_id, exc.new_chat_id)
            await self.send(exc.new_chat_id, screen)
        except BadRequest as exc:
            # The question message is gone (deleted, or never stored): post the reveal instead.
            log.info("edit refused in %s: %s", chat_id, exc)
            await self.send(chat_id, screen)

    # -- a run --------------------------------------------------------------------------------

    async def push(self, chat_id: int, quiz: Quiz, user_id: int | None) -> GroupRun | None:
        """Start `quiz` in the group: intro, then the first question. None if one is running."""
        run = await self.service.start(chat_id, user_id, quiz)
        if run is None:
            return None
        lang = await self._lang(chat_id)
        async with self._lock(run.id):
            if await self.send(chat_id, gr.intro(translator(lang), quiz, run, lang)) is not None:
                await self._ask(run, 0)
        return run

    async def _ask(self, run: GroupRun, index: int) -> None:
        quiz = self.service.quiz_of(run)
        if quiz is None:
            return
        run = await self.service.open_question(run, index)
        lang = await self._lang(run.chat_id)
        screen = gr.question(translator(lang), quiz, run, index, lang)
        try:
            message = await self.send(run.chat_id, screen)
        except TelegramError as exc:
            # Keep the timer anyway: the question is revealed on time and the run goes on,
            # rather than staying open forever.
            log.warning("question %s of run %s not sent: %s", index, run.id, exc)
            self._set_timer(run.id, index, run.seconds)
            return
        if message is None:
            return  # the bot was removed: the run is over
        await self.service.question_sent(run, message.message_id)
        self._set_timer(run.id, index, run.seconds)

    def _set_timer(self, run_id: int, index: int, delay: float) -> None:
        self.jobs.run_once(
            self._on_deadline, when=max(0.0, delay), data=(run_id, index), name=f"run:{run_id}"
        )

    async def _on_deadline(self, context: Ctx) -> None:
        assert context.job is not None
        data = context.job.data
        assert isinstance(data, tuple)
        await self.advance(int(data[0]), int(data[1]))

    async def advance(self, run_id: int, index: int) -> None:
        """Time is up for question `index`: reveal it, then ask the next one or finish."""
        async with self._lock(run_id):
            reveal = await self.service.close_question(run_id, index)
            if reveal is None:
                return  # already revealed, or the run was stopped meanwhile
            await self._show(reveal)
            if reveal.is_last:
                await self._finish(run_id, stopped=False)
            else:
                await self._ask(reveal.run, index + 1)

    async def _show(self, reveal: Reveal) -> None:
        lang = await self._lang(reveal.run.chat_id)
        screen = gr.reveal(
            translator(lang), reveal.quiz, reveal.run, reveal.index, reveal.counts, lang
        )
        await self._edit(reveal.run.chat_id, reveal.run.message_id, screen)

    async def _finish(self, run_id: int, *, stopped: bool) -> None:
        results = await self.service.finish(run_id, stopped=stopped)
        self._locks.pop(run_id, None)
        if results is None:
            return
        lang = await self._lang(results.run.chat_id)
        screen = gr.results(
            translator(lang), results.quiz, results.top, results.players, lang, stopped=stopped
        )
        await self.send(results.run.chat_id, screen)
        for hook in self.on_finished:
            self.app.create_task(hook(results.run.id, results.run.chat_id))

    def _cancel_timers(self, run_id: int) -> None:
        for job in self.jobs.get_jobs_by_name(f"run:{run_id}"):
            job.schedule_removal()

    async def stop(self, chat_id: int) -> bool:
        """/stop: reveal the open question, then post the results so far. False if none ran."""
        run = await self.service.active_run(chat_id)
        if run is None:
            return False
        async with self._lock(run.id):
            self._cancel_timers(run.id)
            current = await self.service.run(run.id)
            if current is not None and current.is_open:
                reveal = await self.service.close_question(run.id, current.current)
                if reveal is not None:
                    await self._show(reveal)
            await self._finish(run.id, stopped=True)
        return True

    async def restore(self) -> None:
        """Resume every run the store says is active, each from where it stood."""
        now = self.service.clock()
        for run in await self.service.restore():
            quiz = self.service.quiz_of(run)
            assert quiz is not None
            step, index = resume_step(run, quiz, now)
            log.info("resuming group run %s: %s question %s", run.id, step, index)
            if step is Step.WAIT:
                self._set_timer(run.id, index, (run.deadline or now) - now)
            elif step is Step.REVEAL:
                self.app.create_task(self.advance(run.id, index))
            elif step is Step.ASK:
                self.app.create_task(self._resume_ask(run, index))
            else:
                self.app.create_task(self._finish(run.id, stopped=False))

    async def _resume_ask(self, run: GroupRun, index: int) -> None:
        async with self._lock(run.id):
            await self._ask(run, index)

    # -- the group itself -----------------------------------------------------------------------

    async def removed(self, chat_id: int) -> None:
        run = await self.service.active_run(chat_id)
        if run is not None:
            self._cancel_timers(run.id)
        for schedule_id in await self.service.left(chat_id):
            self.unregister(schedule_id)
        self.admins.forget_chat(chat_id)

    async def migrated(self, old_id: int, new_id: int) -> None:
        await self.service.migrate(old_id, new_id)
        self.admins.forget_chat(old_id)
        await self.reschedule(new_id)

    # -- schedules ------------------------------------------------------------------------------

    def register(self, schedule: Schedule, timezone: str) -> None:
        self.unregister(schedule.id)
        hour, minute = (int(part) for part in schedule.at_time.split(":"))
        self.jobs.run_daily(
            self._on_schedule,
            time=dtime(hour, minute, tzinfo=ZoneInfo(timezone)),
            days=ptb_days(decode_days(schedule.days)),
            data=schedule.id,
            name=f"sched:{schedule.id}",
        )

    def unregister(self, schedule_id: int) -> None:
        for job in self.jobs.get_jobs_by_name(f"sched:{schedule_id}"):
            job.schedule_removal()

    async def reschedule(self, chat_id: int | None = None) -> None:
        """(Re)build the jobs of a group's schedules, or of every group's at start-up."""
        for schedule in await self.service.schedules(chat_id):
            settings = await self.service.settings(schedule.chat_id)
            self.register(schedule, settings.timezone)

    async def _on_schedule(self, context: Ctx) -> None:
        assert context.job is not None
        data = context.job.data
        assert isinstance(data, int)
        schedule = await self.service.schedule(data)
        if schedule is None:
            context.job.schedule_removal()
            return
        quiz = await self.service.pick_quiz(schedule.chat_id, schedule.quiz)
        if quiz is None:
            log.warning("schedule %s: quiz %r no longer exists", schedule.id, schedule.quiz)
            return
        if await self.push(schedule.chat_id, quiz, None) is None:
            tr = translator(await self._lang(schedule.chat_id))
            await self.send(
                schedule.chat_id,
                Screen(tr._("⏰ A scheduled quiz was skipped: another quiz is still running.")),
            )
