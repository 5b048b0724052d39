"""A group's scheduled quizzes (/schedule): their daily timers, and a run started when one
fires. Schedules live in the store and are registered again at start-up (PTB's JobQueue keeps
jobs in memory only; with several workers they are durable rows, tg/wire/timer_backends.py).

A schedule whose forum topic refuses its run tells the admins once, in General, until the topic
takes a run again; a schedule whose quiz is gone, or that finds a run still going, is skipped
with a log line or a notice.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot.core.schedule import decode_days
from bot.i18n import translator
from bot.store import Schedule
from bot.tg import group_schedule_render
from bot.tg.screen_render import Screen
from bot.tg.topics import TopicGone
from bot.tg.wire.timer_backends import Timers
from bot.usecases import group_runs as runs
from bot.usecases.group_schedules import GroupSchedules
from bot.usecases.group_settings import GroupSettingsCases

log = logging.getLogger(__name__)


class ScheduledRuns:
    def __init__(
        self,
        timers: Timers,
        schedules: GroupSchedules,
        settings: GroupSettingsCases,
        runs: runs.GroupRuns,
        *,
        play: Callable[[runs.Started], Awaitable[bool]],  # the runner's: False if topic gone
        send: Callable[..., Awaitable[int | None]],  # the runner's GroupSends.send
        guarded: Callable[[Coroutine[Any, Any, Any]], Awaitable[None]],  # a step stop waits for
        may_arm: Callable[[], bool],  # False while stopping, if a timer would die with us
    ) -> None:
        self.timers = timers
        self.schedules = schedules
        self.settings = settings
        self.runs = runs
        self.play = play
        self.send = send
        self._guarded = guarded
        self._may_arm = may_arm
        self.timers.on("sched", self._on_schedule)

    async def _lang(self, chat_id: int) -> str:
        return (await self.settings.settings(chat_id)).language

    async def register(self, schedule: Schedule, timezone: str) -> None:
        if not self._may_arm():
            return  # schedules live in the store: the next start registers them
        hour, minute = (int(part) for part in schedule.at_time.split(":"))
        await self.timers.daily(
            "sched", schedule.id, (hour, minute), timezone, decode_days(schedule.days)
        )

    async def unregister(self, schedule_id: int) -> None:
        await self.timers.cancel("sched", schedule_id)

    async def drop_quiz(self, chat_id: int, quiz_id: str) -> int:
        """A group's quiz was deleted: remove its schedules and their timers; how many."""
        removed = await self.schedules.remove_quiz(chat_id, quiz_id)
        for schedule_id in removed:
            await self.unregister(schedule_id)
        return len(removed)

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
                elif not thread:  # no topic: the bot may not send in the group (tg/topics.py)
                    log.info("schedule %s: the bot may not send in its group", schedule.id)
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
        text = group_schedule_render.schedule_topic_gone(tr, number, schedule)
        try:
            await self.send(schedule.chat_id, Screen(text), thread=0)
        except TopicGone as gone:  # General cannot be closed; a guard all the same
            log.info("schedule %s: notice not posted: %s", schedule.id, gone)
