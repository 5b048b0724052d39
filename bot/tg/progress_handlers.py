"""Handlers for /stats (private) and /groupstats (groups), and the private notice after a group
run. (/review and its rounds: rounds_handlers.py; /remind, /timezone and the reminders:
reminder_handlers.py.)
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import Bot, Update
from telegram.error import Forbidden, TelegramError
from telegram.ext import Application

from bot.core.models import Catalog
from bot.i18n import translator
from bot.tg import progress_render as pr
from bot.tg import standings_render
from bot.tg.context import BotContext
from bot.tg.mini_app import DashboardLinks
from bot.tg.screen_render import Screen
from bot.tg.screen_send import send
from bot.tg.wire.html_fit import fit_html
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.group_standings import MyPlaces
from bot.usecases.learner_profile import Learners
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.spaced_review import (
    SpacedReview,
)

log = logging.getLogger(__name__)
Context = BotContext
IsAdmin = Callable[[int, int, int | None], Awaitable[bool]]  # chat, user, sender chat
GroupLanguage = Callable[[int], Awaitable[str]]


class ProgressHandlers(ServesCatalog):
    dashboard: DashboardLinks | None = None  # the Mini App's buttons, when it is served
    # A learner's place and points in each of their groups, shown at the end of /stats.
    group_places: Callable[[int], Awaitable[list[MyPlaces]]] | None = None

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        review: SpacedReview,
        stats: LearnerStatsCases,
        learners: Learners,
        catalog: Catalog | CatalogRef,
        is_admin: IsAdmin,
        group_language: GroupLanguage,
    ) -> None:
        self.app = app
        self.service = review
        self.stats_cases = stats
        self.learners = learners
        self._catalog_ref = catalog_ref(catalog)
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
            text = fit_html(text)
            screen = Screen(text, screen.keyboard)
        if self.dashboard is not None:
            screen = Screen(screen.text, self.dashboard.private_keyboard(context.tr))
        await send(message, screen)

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

    @property
    def bot(self) -> Bot:
        bot: Bot = self.app.bot
        return bot

    async def restore(self) -> None:
        """Drain the review inbox in the background: after migration 003 it holds every past
        miss (about 27 s for 300,000 of them), which no learner's first /review should wait for."""
        self.app.create_task(self.service.sync())
