"""Handlers for /stats, /review, /remind (private) and /groupstats (groups), review buttons,
daily reminder jobs, and the private notice after a group run.

Reminders are daily timers (bot/tg/timer_backends.py): JobQueue jobs live in memory only, so
`restore` rebuilds them from the store at start-up (durable timers are simply re-armed).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import Bot, CallbackQuery, Message, Update
from telegram.error import Forbidden, TelegramError
from telegram.ext import Application

from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.models import Catalog
from bot.i18n import translator
from bot.store.reviews import Reminder
from bot.tg import callbacks as cb
from bot.tg import progress_render as pr
from bot.tg import standings_render
from bot.tg import streak_render as sr
from bot.tg.context import BotContext
from bot.tg.mini_app import DashboardLinks
from bot.tg.private import acknowledge, drop_keyboard, edit, send
from bot.tg.render import Screen, truncate
from bot.tg.timer_backends import JobTimers, Timers
from bot.usecases.group_standings import MyPlaces
from bot.usecases.learner_profile import Learner, Learners
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.spaced_review import (
    BadTime,
    NothingDue,
    RemindOff,
    RemindOn,
    RemindUsage,
    ReviewCard,
    SpacedReview,
)

log = logging.getLogger(__name__)
Context = BotContext
IsAdmin = Callable[[int, int, int | None], Awaitable[bool]]  # chat, user, sender chat
GroupLanguage = Callable[[int], Awaitable[str]]


class ProgressHandlers:
    dashboard: DashboardLinks | None = None  # the Mini App's buttons, when it is served
    # A learner's place and points in each of their groups, shown at the end of /stats.
    group_places: Callable[[int], Awaitable[list[MyPlaces]]] | None = None

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        review: SpacedReview,
        stats: LearnerStatsCases,
        learners: Learners,
        catalog: Catalog,
        is_admin: IsAdmin,
        group_language: GroupLanguage,
        timers: Timers | None = None,
    ) -> None:
        self.app = app
        # Reminders are daily timers: PTB's JobQueue, or durable rows shared by several workers.
        self.timers = timers if timers is not None else JobTimers(app)
        self.timers.on("remind", self.send_reminder)
        self.service = review
        self.stats_cases = stats
        self.learners = learners
        self.catalog = catalog
        self.is_admin = is_admin
        self.group_language = group_language

    # -- private commands -----------------------------------------------------------------------

    async def stats(self, update: Update, context: Context) -> None:
        message, learner = update.effective_message, context.learner
        if message is None:
            return
        data = await self.stats_cases.stats(learner.user_id)
        screen = pr.stats(context.tr, self.catalog, data, learner.lang)
        groups = await self.group_places(learner.user_id) if self.group_places else []
        if groups:  # one message: the learner's own progress, then their groups
            text = f"{screen.text}\n\n{standings_render.groups_section(context.tr, groups)}"
            text = truncate(text, MESSAGE_MAX_CHARS)
            screen = Screen(text, screen.keyboard)
        if self.dashboard is not None:
            screen = Screen(screen.text, self.dashboard.private_keyboard(context.tr))
        await send(message, screen)

    async def review(self, update: Update, context: Context) -> None:
        if update.effective_message is not None:
            await self._serve(update.effective_message, context.learner)

    async def _serve(self, message: Message, learner: Learner) -> None:
        lang, tr = learner.lang, translator(learner.lang)
        match await self.service.serve(learner.user_id):
            case NothingDue(next_at):
                await send(message, pr.nothing_due(tr, next_at, self.service.tz))
            case ReviewCard() as card:
                await send(message, pr.review_card(tr, card, lang))

    async def remind(self, update: Update, context: Context) -> None:
        message, user_id, tr = update.effective_message, context.learner.user_id, context.tr
        if message is None:
            return
        match await self.service.remind(user_id, context.args or []):
            case RemindOff(had_one):
                await self.unregister(user_id)
                await send(message, Screen(pr.remind_off(tr, had_one)))
            case BadTime(typed):
                await send(message, Screen(pr.bad_time(tr, typed)))
            case RemindUsage(current):
                await send(message, Screen(pr.remind_usage(tr, current)))
            case RemindOn(reminder):
                await self.register(reminder)
                await send(message, Screen(pr.remind_on(tr, reminder)))

    # -- review buttons -----------------------------------------------------------------------

    async def callback(self, query: CallbackQuery, learner: Learner, data: cb.Callback) -> None:
        """A review button (the router checked it was tapped in a private chat)."""
        lang, tr = learner.lang, translator(learner.lang)
        message = query.message if isinstance(query.message, Message) else None
        if isinstance(data, cb.ReviewNext):
            await acknowledge(query)
            await drop_keyboard(query)
            if message is not None:
                await self._serve(message, learner)
            return
        if not isinstance(data, cb.ReviewAnswer):
            await acknowledge(query, pr.review_stale(tr))
            return
        result = await self.service.answer(learner.user_id, data.item_id, data.order, data.position)
        if result is None:
            await acknowledge(query, pr.review_stale(tr))
            return
        # Stored: now the learner may see the verdict.
        await acknowledge(query, pr.verdict_popup(tr, result.judgement))
        await edit(query, pr.answered_card(tr, result.card, result.judgement, lang))
        if message is not None:
            await send(message, pr.feedback(tr, result, lang, self.service.tz))

    # -- groups -------------------------------------------------------------------------------

    async def groupstats(self, update: Update, context: Context) -> None:
        message, chat = update.effective_message, update.effective_chat
        if message is None or chat is None:
            return
        tr = translator(await self.group_language(chat.id))
        user_id = message.from_user.id if message.from_user else 0
        sender_chat = message.sender_chat.id if message.sender_chat else None
        if not await self.is_admin(chat.id, user_id, sender_chat):
            await send(message, Screen(tr._("Sorry, only the group's admins can do that.")))
            return
        report = await self.stats_cases.group_report(chat.id)
        screen = pr.group_report(tr, self.catalog, report, tr.lang)
        if self.dashboard is not None:
            keyboard = self.dashboard.group_keyboard(tr, self.bot.username, chat.id)
            screen = Screen(screen.text, keyboard)
        await send(message, screen)

    async def notify_group_misses(self, attempt_id: int, chat_title: str = "") -> int:
        """Tell each member who missed questions in a finished group run, once, in private,
        that those questions joined their review queue; how many were told.

        Call it when a group run ends (finished or stopped). Members who never started the bot
        privately are skipped: Telegram forbids a bot to write first.
        """
        told = 0
        for user_id, missed in (await self.service.group_misses(attempt_id)).items():
            if not await self.service.claim_notice(attempt_id, user_id):
                continue  # already told (a second call, or a restart mid-way)
            lang = await self.learners.language(user_id)
            text = pr.group_notice(translator(lang), missed, chat_title)
            try:
                await self.bot.send_message(user_id, text)
                told += 1
            except Forbidden:
                log.info("member %s blocked the bot; no review notice", user_id)
            except TelegramError as exc:
                log.warning("review notice to %s failed: %s", user_id, exc)
        return told

    # -- daily reminders ----------------------------------------------------------------------

    @property
    def bot(self) -> Bot:
        bot: Bot = self.app.bot
        return bot

    async def register(self, reminder: Reminder) -> None:
        hour, minute = (int(part) for part in reminder.at_time.split(":"))
        await self.timers.daily(
            "remind", reminder.user_id, (hour, minute), reminder.timezone, tuple(range(7))
        )

    async def unregister(self, user_id: int) -> None:
        await self.timers.cancel("remind", user_id)

    async def restore(self) -> None:
        """Rebuild every reminder job from the store (JobQueue forgets them on restart), and
        drain the review inbox in the background: after migration 003 it holds every past miss
        (about 27 s for 300,000 of them), which no learner's first /review should wait for."""
        for reminder in await self.service.reminders():
            await self.register(reminder)
        self.app.create_task(self.service.sync())

    async def send_reminder(self, user_id: int) -> bool:
        """Remind one learner if reviews are due or their streak breaks tonight without
        activity (a gentle note); False when there was nothing to say or sending failed."""
        due = await self.service.due_count(user_id)
        streak = await self.stats_cases.streak_status(user_id)
        if not due and not streak.at_risk:
            return False
        tr = translator(await self.learners.language(user_id))
        screen = pr.reminder(tr, due) if due else Screen("")  # with a button to start reviewing
        lines = [screen.text] if due else []
        if streak.days:
            lines.append(sr.streak_line(tr, streak))
        try:
            text = "\n".join(lines)
            await self.bot.send_message(user_id, text, reply_markup=screen.keyboard)
        except TelegramError as exc:
            log.info("reminder to %s not sent: %s", user_id, exc)
            return False
        return True
