"""An open group question's message: the screen it was asked with, whether it went out as a
captioned photo (every later edit must pick the same method), and its live count, refreshed at
the planned steps while it is open (bot/core/live_feedback.py): one edit per step when the
count changed, none per tap.

Not with shared timers (several workers): another worker may reveal the question, and a late
refresh there would put the buttons back on the reveal. The runner (group_run_handlers.py)
decides that, and cancels the refreshes when the bot stops: they are optional.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

from telegram.error import TelegramError

from bot.core.group_run import GroupRun
from bot.core.live_feedback import LivePolicy, live_steps
from bot.core.models import Quiz
from bot.i18n import Translator, translator
from bot.tg import group_run_render
from bot.tg.group_sends import GroupSends
from bot.tg.screen_render import Screen
from bot.tg.wire import calls
from bot.tg.wire.captions import as_caption
from bot.usecases import group_runs as runs

log = logging.getLogger(__name__)


class LiveCounts:
    def __init__(
        self,
        sends: GroupSends,
        runs: runs.GroupRuns,
        policy: LivePolicy,
        locks: dict[int, asyncio.Lock],  # the runner's, one per run: none while a step runs
        lang: Callable[[int], Awaitable[str]],  # a group's language
    ) -> None:
        self.sends = sends
        self.runs = runs
        self.policy = policy
        self._locks = locks
        self._lang = lang
        self._tasks: set[asyncio.Task[Any]] = set()

    def asked(self, tr: Translator, quiz: Quiz, run: GroupRun, index: int, lang: str) -> Screen:
        """The question as the runner sends it."""
        question = group_run_render.question(tr, quiz, run, index, lang)
        return group_run_render.live_question(question, tr, 0, math.ceil(run.seconds))

    def captioned(self, tr: Translator, quiz: Quiz, run: GroupRun, index: int, lang: str) -> bool:
        """Whether the question went out as a captioned photo (bot/tg/wire/photos.py), decided from
        the screen that was sent, so that every later edit picks the same method."""
        sent = self.asked(tr, quiz, run, index, lang)
        return self.sends.photos is not None and as_caption(sent.text, sent.photo)

    def start(self, run: GroupRun, index: int) -> None:
        """Refresh the question at the planned steps."""
        steps = live_steps(run.seconds, self.policy)
        if not steps:
            return
        # A task of the loop's own, not PTB's create_task: that one wraps the coroutine in
        # another, and a refresh cancelled at stop before it began left its coroutine "never
        # awaited" (a RuntimeWarning, an error under the tests' -W error).
        task = asyncio.get_running_loop().create_task(self._live(run.id, index, steps))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def cancel(self) -> None:
        """The bot stops: refreshes are optional, nothing to wait for."""
        for task in self._tasks:
            task.cancel()

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
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
                question = group_run_render.question(tr, live.quiz, live.run, index, lang)
                screen = group_run_render.live_question(
                    question, tr, live.answered, live.seconds_left
                )
                captioned = self.captioned(tr, live.quiz, live.run, index, lang)
                edit = calls.edit_caption if captioned else calls.edit_text
                try:
                    await edit(
                        self.sends.bot,
                        live.run.chat_id,
                        live.run.message_id,
                        screen.text,
                        screen.keyboard,
                    )
                except TelegramError as exc:  # a refresh is optional: never re-posted
                    log.info("live count of run %s not shown: %s", run_id, exc)
