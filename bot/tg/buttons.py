"""One entry for every button tap: parse the data once, bind it to the chat type it was made
for, then hand it to the handler of its kind.

Callback data is attacker-controlled: any client can send any string from any chat. A group
button (`g:`, `gt:`, `gs:`, `set:`, `top:`) is accepted only in a group, a private or review
button only in a private chat, and anything we never produced gets a popup. A refusal changes
nothing and is said in the tapper's own language.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Chat, Update

from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.context import BotContext
from bot.tg.group import GroupHandlers
from bot.tg.group_select import GroupSelectHandlers
from bot.tg.practice_handlers import PracticeHandlers
from bot.tg.private import PrivateHandlers, acknowledge
from bot.tg.progress_handlers import ProgressHandlers
from bot.tg.reminder_handlers import ReminderHandlers
from bot.tg.report_handlers import ReportHandlers
from bot.tg.standings_handlers import StandingsHandlers
from bot.tg.upload_handlers import UploadHandlers

log = logging.getLogger(__name__)
GROUPS = (Chat.GROUP, Chat.SUPERGROUP)


class ButtonRouter:
    def __init__(
        self,
        private: PrivateHandlers,
        group: GroupHandlers,
        review: ProgressHandlers,
        standings: StandingsHandlers,
        practice: PracticeHandlers,
        uploads: UploadHandlers | None = None,
        reminders: ReminderHandlers | None = None,
        reports: ReportHandlers | None = None,
        group_select: GroupSelectHandlers | None = None,
    ) -> None:
        self.group_select = group_select
        self.uploads = uploads
        self.reminders = reminders
        self.reports = reports
        self.private = private
        self.group = group
        self.review = review
        self.standings = standings
        self.practice = practice

    async def __call__(self, update: Update, context: BotContext) -> None:
        query, chat = update.callback_query, update.effective_chat
        if query is None:
            return
        tapper, tr = context.learner, context.tr
        data = cb.parse(query.data)
        kind = chat.type if chat is not None else None  # None: an inline message, never ours
        if data is None:
            await _refuse(query, tr, private=kind == Chat.PRIVATE)
        elif isinstance(data, cb.GROUP_ONLY):
            if chat is None or kind not in GROUPS:
                await _refuse(query, tr)  # forged: must not record a chat as a group
            elif isinstance(data, cb.GroupAnswer):
                await self.group.answer(query, tapper, chat, data)
            elif isinstance(data, cb.GroupToggle) and self.group_select is not None:
                await self.group_select.toggle(query, tapper, chat, data)
            elif isinstance(data, cb.GroupSubmit) and self.group_select is not None:
                await self.group_select.submit(query, tapper, chat, data)
            elif isinstance(data, cb.Setting):
                await self.group.setting(query, tapper, chat, data)
            elif isinstance(data, cb.TopWindow):
                await self.standings.window(query, tapper, chat, data)
        elif kind != Chat.PRIVATE:
            await acknowledge(query, tr._("This button works in a private chat with me."))
        elif isinstance(data, cb.PRACTICE_KINDS):
            await self.practice.callback(query, tapper, data)
        elif isinstance(data, cb.UploadFor) and self.uploads is not None:
            await self.uploads.chosen(query, tapper, data)  # bound there to the tapper
        elif isinstance(data, cb.UploadChoice) and self.uploads is not None:
            await self.uploads.confirmed(query, tapper, data)  # bound there to the tapper
        elif isinstance(data, cb.UploadGuide) and self.uploads is not None:
            await self.uploads.guide_chosen(query, tapper, data)  # an admin of the group only
        elif isinstance(data, cb.REMINDER_KINDS) and self.reminders is not None:
            await self.reminders.callback(query, tapper, data)  # bound there to the tapper
        elif isinstance(data, cb.REPORT_KINDS) and self.reports is not None:
            await self.reports.callback(query, tapper, data)  # bound there to the tapper
        elif isinstance(data, cb.REVIEW_KINDS):
            await self.review.callback(query, tapper, data)
        else:
            await self.private.callback(query, tapper, data)


async def _refuse(query: CallbackQuery, tr: Translator, *, private: bool = False) -> None:
    if private:
        await acknowledge(query, tr._("This button has expired. /quizzes to start again."))
    else:
        await acknowledge(query, tr._("This button has expired."))
