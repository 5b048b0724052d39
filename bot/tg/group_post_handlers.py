"""What a group run posts in its group, rendered in the group's language: its intro, each
question (its send released in the store as the request leaves, so a question goes out at most
once), the reveal (an edit of the question in place, or of its caption, or a new message when
neither fits), the notice that nobody answered, and the results with the lasting standings.
The runner (group_run_handlers.py) calls these as the use case's port asks
(bot/usecases/group_run_steps.py RunPort).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram.error import BadRequest, TelegramError

from bot.core.group_run import GroupRun
from bot.core.models import Quiz
from bot.i18n import translator
from bot.tg import group_run_render
from bot.tg import standings_render as sr
from bot.tg.group_live_handlers import LiveCounts
from bot.tg.group_sends import GroupSends
from bot.tg.screen_render import Screen
from bot.tg.topics import TopicGone
from bot.tg.wire import calls
from bot.tg.wire.captions import fits_caption
from bot.tg.wire.html_fit import fit_html
from bot.tg.wire.retry import OnWire
from bot.usecases import group_run_steps as steps
from bot.usecases import group_runs as runs

log = logging.getLogger(__name__)


class Superseded(Exception):
    """A question's send was stopped before it left: another worker opened it again."""


class RunPosts:
    def __init__(
        self,
        sends: GroupSends,
        counts: LiveCounts,  # the open question's screen, and whether it went as a caption
        lang: Callable[[int], Awaitable[str]],  # a group's language
    ) -> None:
        self.sends = sends
        self.counts = counts
        self._lang = lang

    async def intro(self, run: GroupRun, quiz: Quiz) -> bool:
        lang = await self._lang(run.chat_id)
        intro = group_run_render.intro(translator(lang), quiz, run, lang)
        return await self.sends.send(run.chat_id, intro, thread=run.thread_id) is not None

    async def question(
        self, run: GroupRun, quiz: Quiz, index: int, release: steps.Release
    ) -> steps.Asked:
        """Render question `index` and send it; `release` is awaited as the request leaves."""
        lang = await self._lang(run.chat_id)
        screen = self.counts.asked(translator(lang), quiz, run, index, lang)
        try:
            on_wire = OnWire(self._releasing(run, release))
            message_id = await self.sends.send(run.chat_id, screen, on_wire, thread=run.thread_id)
        except Superseded:
            return steps.Superseded()
        except TelegramError as exc:
            return steps.NotSent(str(exc))
        return steps.Removed() if message_id is None else steps.Sent(message_id)

    def _releasing(
        self, run: GroupRun, release: steps.Release
    ) -> Callable[[], Coroutine[Any, Any, None]]:
        """The question's send is leaving: record it first (send-once, bot/core/group_run.py
        resume_step); if another worker opened the question again meanwhile, do not send."""

        async def leaving() -> None:
            if not await release():
                raise Superseded(run.id)

        return leaving

    async def reveal(self, reveal: runs.Reveal) -> None:
        sends = self.sends
        lang = await self._lang(reveal.run.chat_id)
        tr, run, chat_id = translator(lang), reveal.run, reveal.run.chat_id
        screen = group_run_render.reveal(
            tr, reveal.quiz, run, reveal.index, reveal.counts, lang, reveal.answers
        )
        if not self.counts.captioned(tr, reveal.quiz, run, reveal.index, lang):
            await sends.edit(chat_id, run.message_id, screen, run.thread_id)
        elif run.message_id is not None and fits_caption(screen.text):
            await sends.edit_caption(chat_id, run.message_id, screen, run.thread_id)
        else:  # too long for a caption: the photo loses its buttons, the reveal follows it
            if run.message_id is not None:
                with contextlib.suppress(BadRequest):
                    await calls.drop_keyboard(sends.bot, chat_id, run.message_id)
            await sends.send(chat_id, screen, thread=run.thread_id)
        pictured = reveal.quiz.questions[reveal.index].explanation_image
        if pictured is not None:  # the explanation's picture follows the reveal
            picture = Screen("", photo=pictured.file(lang), alt=pictured.alt.get(lang))
            await sends.send(chat_id, picture, thread=run.thread_id)

    async def unattended(self, run: GroupRun) -> None:
        tr = translator(await self._lang(run.chat_id))
        await self.sends.send(
            run.chat_id, Screen(group_run_render.unattended(tr)), thread=run.thread_id
        )

    async def results(self, results: runs.RunResults, *, stopped: bool) -> None:
        """The leaderboard (a stopped run's: of what was asked) and the lasting standings; a
        gone topic is one log line, the run is over anyway."""
        lang = await self._lang(results.run.chat_id)
        asked = results.run.current + 1 if stopped else None  # a stopped run: what was asked
        tr = translator(lang)
        standing = results.standing
        screen = group_run_render.results(
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
            text = fit_html(f"{screen.text}\n\n{footer}")
            screen = Screen(text, screen.keyboard)
        run = results.run
        try:
            await self.sends.send(run.chat_id, screen, thread=run.thread_id)
        except TopicGone as gone:  # the run is over anyway: its hooks still run
            log.info("results of group run %s not posted: %s", run.id, gone)
