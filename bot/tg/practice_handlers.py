"""Handlers of /practice and /exam: the chooser, the clock choice, the start of a set, and
answers (private chats only; the router has bound every practice button to a private chat and
passes the tapper).

A set belongs to the learner who started it: a tap by anyone else, a second tap, or a tap on a
set that is over changes nothing and says so in a popup.

An exam's clock runs without taps: each question shown arms an `exam` timer (the timer seam
group runs use, bot/tg/wire/timer_backends.py) at its deadline, per question or for the whole exam;
when it fires the use case counts what is left missed and the learner gets the next question or
the results. `restore` re-arms the timers of running exams at start-up (JobQueue forgets them).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from telegram import Bot, CallbackQuery, Update
from telegram.error import BadRequest, TelegramError

from bot.core.exam import ExamClock
from bot.core.models import Catalog, GuidePath
from bot.core.practice import LENGTHS, offered_levels
from bot.i18n import Translator, translator
from bot.tg import callbacks as cb
from bot.tg import exam_render as er
from bot.tg import practice_render as pr
from bot.tg import report_render as rr
from bot.tg.context import BotContext
from bot.tg.screen_render import Screen, with_image
from bot.tg.screen_send import acknowledge, drop_keyboard, edit, reply
from bot.tg.wire.photos import PhotoSender, send_screen
from bot.tg.wire.timer_backends import Timers
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.learner_profile import Learner, Learners
from bot.usecases.practice_outcomes import (
    ExamTimeIsUp,
    ExamUnderWay,
    ExamWaits,
    NothingMatches,
    PracticeAnswered,
    PracticeQuestion,
)
from bot.usecases.practice_session import PracticeSession

log = logging.getLogger(__name__)
DEFAULT_LENGTH = 10


class PracticeHandlers(ServesCatalog):
    def __init__(self, session: PracticeSession, catalog: Catalog | CatalogRef) -> None:
        self.session = session
        self._catalog_ref = catalog_ref(catalog)
        self.timers: Timers | None = None  # exam clocks; set by `use_timers`
        self.bot: Bot | None = None
        self.learners: Learners | None = None
        self.photos: PhotoSender | None = None  # content pictures (bot/tg/wire/photos.py)

    def use_timers(self, timers: Timers, bot: Bot, learners: Learners) -> None:
        """Exam clocks run on `timers` (the group runs' timers), sending with `bot` in each
        learner's language."""
        self.timers, self.bot, self.learners = timers, bot, learners
        timers.on("exam", self.exam_time_up)

    async def restore(self) -> None:
        """Start-up: a timer for every running exam (due at once if its time ran out while the
        bot was down)."""
        if self.timers is None:
            return
        for exam in await self.session.running_exams():
            if self.timers.durable:
                await self.timers.ensure("exam", exam.set_id, exam.index, exam.user_id)
            else:
                delay = exam.deadline - self.session.clock()
                await self.timers.once("exam", exam.set_id, delay, exam.index, exam.user_id)

    async def exam_time_up(self, set_id: int, index: int, user_id: int) -> None:
        """An exam timer fired: the question (or the whole exam) is out of time."""
        outcome = await self.session.time_up(set_id, index)
        if isinstance(outcome, ExamWaits):  # early on the bot's clock: wait the rest
            if self.timers is not None:
                await self.timers.once("exam", set_id, outcome.delay, index, user_id)
            return
        if not isinstance(outcome, PracticeAnswered) or self.bot is None:
            return  # answered in time, ended or abandoned: nothing to do
        lang = await self.learners.language(user_id) if self.learners else "en"
        tr = translator(lang)
        try:
            if outcome.following is not None:
                await self.bot.send_message(user_id, er.question_timed_out(tr, outcome))
                await self._send_question(self.bot, user_id, lang, outcome.following)
            else:
                for text in er.results(tr, outcome, lang, note=er.exam_timed_out(tr)):
                    await self.bot.send_message(user_id, text)
        except TelegramError as exc:  # blocked the bot, or gone: the store has the results
            log.info("exam %s: time-up message not sent: %s", set_id, exc)

    @property
    def guides(self) -> list[GuidePath]:
        """The guides the chooser offers, in the catalogue's order (at most
        `PRACTICE_GUIDES_MAX`: a mask of more would not fit a button's data)."""
        return list(self.catalog.guides.values())[: pr.PRACTICE_GUIDES_MAX]

    async def practice(self, update: Update, context: BotContext) -> None:
        message = update.effective_message
        if message is None:
            return
        tr, lang = context.tr, context.learner.lang
        screen = self._chooser(tr, 0, "x", DEFAULT_LENGTH, lang)
        await message.reply_text(screen.text, reply_markup=screen.keyboard)

    def _chooser(self, tr: Translator, mask: int, level: str, length: int, lang: str) -> Screen:
        """The chooser with only the levels that have quizzes in the ticked guides; a level
        ticked before its guides changed, and no longer offered, falls back to any level."""
        levels = offered_levels(self.catalog, pr.chosen_guides(self.guides, mask))
        if pr.LEVEL_CODES.get(level) not in (None, *levels):
            level = "x"
        return pr.chooser(tr, self.guides, mask, level, length, lang, levels)

    async def exam(self, update: Update, context: BotContext) -> None:
        """/exam: the quizzes to take against the clock (/exam <quiz-id> skips the list)."""
        message = update.effective_message
        if message is None:
            return
        tr, lang = context.tr, context.learner.lang
        quiz = self.catalog.quiz(context.args[0]) if context.args else None
        screen = er.clock_choice(tr, quiz, lang) if quiz else er.picker(tr, self.catalog, lang)
        await message.reply_text(screen.text, reply_markup=screen.keyboard)

    async def stop(
        self,
        update: Update,
        context: BotContext,
        *,
        quiz_waiting: Callable[[], Awaitable[bool]],
    ) -> bool:
        """/stop in private, for a running exam: it ends there (its misses join the reviews, its
        clock stops). False when no exam was running (then /stop is about the quiz)."""
        message = update.effective_message
        if message is None:
            return False
        stopped = await self.session.stop_exam(context.learner.user_id)
        if stopped is None:
            return False
        if self.timers is not None:
            await self.timers.cancel("exam", stopped.set_id)
        await message.reply_text(er.stopped(context.tr, stopped, await quiz_waiting()))
        return True

    async def callback(self, query: CallbackQuery, tapper: Learner, data: object) -> None:
        if isinstance(data, cb.ExamPick):
            await self._exam_pick(query, tapper, data)
        elif isinstance(data, cb.ExamGo):
            await self._exam_go(query, tapper, data)
        elif isinstance(data, cb.PracticeChoice):
            await self._choose(query, tapper, data)
        elif isinstance(data, cb.PracticeGo):
            await self._go(query, tapper, data)
        elif isinstance(data, cb.PracticeMore):
            await self._more(query, tapper)
        elif isinstance(data, cb.PracticeAnswer):
            await self._answer(query, tapper, data)

    def _offered(self, data: cb.PracticeChoice | cb.PracticeGo) -> bool:
        """Whether the chooser could have made this choice: a length it offers, guides it has."""
        return data.length in LENGTHS and not data.guides >> len(self.guides)

    async def _choose(self, query: CallbackQuery, tapper: Learner, data: cb.PracticeChoice) -> None:
        if not self._offered(data):
            # Forged (no such guide or length): said as of any button we never made.
            await acknowledge(query, tapper_tr(tapper)._("This button has expired."))
            return
        await acknowledge(query)
        screen = self._chooser(tapper_tr(tapper), data.guides, data.level, data.length, tapper.lang)
        await edit(query, screen)

    async def _more(self, query: CallbackQuery, tapper: Learner) -> None:
        """🔁 under a summary: a new chooser below it, so the score stays readable."""
        await acknowledge(query)
        screen = self._chooser(tapper_tr(tapper), 0, "x", DEFAULT_LENGTH, tapper.lang)
        await reply(query, screen)

    async def _go(self, query: CallbackQuery, tapper: Learner, data: cb.PracticeGo) -> None:
        tr = tapper_tr(tapper)
        if not self._offered(data):
            await acknowledge(query, tr._("This button has expired."))
            return
        level = pr.LEVEL_CODES.get(data.level)
        guides = pr.chosen_guides(self.guides, data.guides)
        started = await self.session.start(tapper.user_id, guides, level, data.length)
        if isinstance(started, NothingMatches):
            await acknowledge(query, pr.nothing_matches(tr), show_alert=True)
            return
        await acknowledge(query)
        await self._send_question(query.get_bot(), tapper.user_id, tapper.lang, started)

    async def _exam_pick(self, query: CallbackQuery, tapper: Learner, data: cb.ExamPick) -> None:
        quiz = self.catalog.quiz(data.quiz_id)
        if quiz is None:
            await acknowledge(query, tapper_tr(tapper)._("This button has expired."))
            return
        await acknowledge(query)
        await edit(query, er.clock_choice(tapper_tr(tapper), quiz, tapper.lang))

    async def _exam_go(self, query: CallbackQuery, tapper: Learner, data: cb.ExamGo) -> None:
        tr = tapper_tr(tapper)
        clock = ExamClock(data.clock)
        started = await self.session.start_exam(tapper.user_id, data.quiz_id, clock, data.seconds)
        if isinstance(started, NothingMatches):
            await acknowledge(query, tr._("This button has expired."))
            return
        if isinstance(started, ExamUnderWay):  # a double tap: its question is on its way
            await acknowledge(query)
            return
        await acknowledge(query)
        # The choice is made: tapped again (twice in a row, or from question 5), it would start
        # the exam over and end this one unseen.
        await drop_keyboard(query)
        await self._send_question(query.get_bot(), tapper.user_id, tapper.lang, started)

    async def _send_question(
        self, bot: Bot, user_id: int, lang: str, asked: PracticeQuestion
    ) -> None:
        tr = translator(lang)
        screen = with_image(pr.question(tr, asked, lang), asked.question.image, lang)
        text = screen.text
        if asked.exam is not None:
            text = f"{text}\n\n{er.time_line(tr, asked, self.session.clock())}"
            if self.timers is not None:  # the clock runs whether or not the learner taps
                delay = asked.exam.deadline() - self.session.clock()
                await self.timers.cancel("exam", asked.set_id)
                await self.timers.once("exam", asked.set_id, delay, asked.index, user_id)
        await send_screen(bot, user_id, replace(screen, text=text), self.photos)

    async def _answer(self, query: CallbackQuery, tapper: Learner, data: cb.PracticeAnswer) -> None:
        tr = tapper_tr(tapper)
        outcome = await self.session.answer(
            tapper.user_id, data.set_id, data.question, data.position
        )
        if isinstance(outcome, ExamTimeIsUp):
            await acknowledge(query, er.time_is_up(tr), show_alert=True)
            try:  # its buttons go: the question no longer takes answers
                await query.edit_message_reply_markup(None)
            except BadRequest as exc:
                log.info("exam buttons not removed: %s", exc)
            return
        if not isinstance(outcome, PracticeAnswered):
            await acknowledge(query, pr.closed(tr))
            return
        asked = pr.question(tr, outcome.asked, tapper.lang)
        bot = query.get_bot()
        if outcome.is_exam:  # no verdict, no explanation until the end
            popup = er.answered(tr, outcome)
            await acknowledge(query, popup)
            if not await edit(query, Screen(f"{asked.text}\n\n{popup}")):
                await drop_keyboard(query)  # a captioned photo too full: its buttons go
            if outcome.following is not None:
                await self._send_question(bot, tapper.user_id, tapper.lang, outcome.following)
            else:
                if self.timers is not None:
                    await self.timers.cancel("exam", outcome.asked.set_id)
                for text in er.results(tr, outcome, tapper.lang):
                    await bot.send_message(tapper.user_id, text)
            return
        assert outcome.judgement is not None  # practice has no clock
        await acknowledge(query, pr.verdict(tr, outcome.judgement))
        why = pr.explanation(tr, outcome, tapper.lang)
        # ⚠️ Report, as under every answered card (bot/tg/report_handlers.py)
        report = rr.set_answered_keyboard(tr, outcome.asked.set_id, outcome.asked.index)
        if not await edit(query, Screen(asked.text + "\n\n" + why, report)):
            # A captioned photo cannot hold the why (or the message is gone): it follows.
            await drop_keyboard(query)
            await reply(query, Screen(why, report))
        if outcome.following is not None:
            await self._send_question(bot, tapper.user_id, tapper.lang, outcome.following)
        else:
            screen = pr.result(tr, outcome)
            await bot.send_message(tapper.user_id, screen.text, reply_markup=screen.keyboard)


def tapper_tr(tapper: Learner) -> Translator:
    return translator(tapper.lang)
