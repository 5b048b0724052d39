"""One entry for every button tap: parse the data once, bind it to the chat type it was made
for, then hand it to the handler of its kind.

Callback data is attacker-controlled: any client can send any string from any chat. A kind's
chat type is read from the callbacks table (`@button("g", GROUP)`): a group kind is accepted only
in a group, a private kind only in a private chat, and anything we never produced gets a popup.
A refusal changes nothing and is said in the tapper's own language. The routes are two tables,
one per chat type, and the router refuses to start unless each holds exactly the kinds bound to
its chat type: a kind cannot reach a handler of the other one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from telegram import CallbackQuery, Chat, Update

from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.callback_codec import Place
from bot.tg.context import BotContext
from bot.tg.group_answer_handlers import GroupAnswerHandlers
from bot.tg.group_handlers import GroupHandlers
from bot.tg.practice_handlers import PracticeHandlers
from bot.tg.private_handlers import PrivateHandlers
from bot.tg.reminder_handlers import ReminderHandlers
from bot.tg.report_handlers import ReportHandlers
from bot.tg.rounds_handlers import RoundHandlers
from bot.tg.screen_send import acknowledge
from bot.tg.standings_handlers import StandingsHandlers
from bot.tg.upload_handlers import UploadHandlers
from bot.usecases.learner_profile import Learner

log = logging.getLogger(__name__)
GROUPS = (Chat.GROUP, Chat.SUPERGROUP)
# A handler of one kind: its data is that kind (the router looked it up by its class).
InGroup = Callable[[CallbackQuery, Learner, Chat, Any], Awaitable[None]]
InPrivate = Callable[[CallbackQuery, Learner, Any], Awaitable[None]]


class ButtonRouter:
    def __init__(
        self,
        private: PrivateHandlers,
        group: GroupHandlers,
        review: RoundHandlers,
        standings: StandingsHandlers,
        practice: PracticeHandlers,
        uploads: UploadHandlers,
        reminders: ReminderHandlers,
        reports: ReportHandlers,
        group_answers: GroupAnswerHandlers,
    ) -> None:
        self.in_group: dict[type, InGroup] = {
            cb.GroupAnswer: group_answers.tap,
            cb.GroupToggle: group_answers.toggle,
            cb.GroupSubmit: group_answers.submit,
            cb.Setting: group.setting,  # admins only: checked there
            cb.TopWindow: standings.window,
        }
        self.in_private: dict[type, InPrivate] = {
            **_each(private.callback, cb.Lang, cb.ShowQuiz, cb.StartQuiz, cb.StartOver,
                    cb.QuizList, cb.BackToList, cb.Answer, cb.Toggle, cb.Submit, cb.Flip,
                    cb.Next, cb.Continue, cb.Abandon, cb.Review),
            **_each(practice.callback, cb.PracticeChoice, cb.PracticeGo, cb.PracticeMore,
                    cb.PracticeAnswer, cb.ExamPick, cb.ExamGo),
            **_each(review.callback, cb.ReviewAnswer, cb.ReviewToggle, cb.ReviewSubmit,
                    cb.ReviewFlip, cb.ReviewNext, cb.ReviewStep, cb.PractiseNow),
            # These four are bound there to the tapper the data names.
            cb.UploadFor: uploads.chosen,
            cb.UploadChoice: uploads.confirmed,
            cb.UploadGuide: uploads.guide_chosen,  # the tapper must still administer the group
            **_each(reminders.callback, cb.ZonePick, cb.ZoneSuggested, cb.ReminderReview),
            **_each(reports.callback, cb.ReportOpen, cb.ReportReason, cb.ReportBack,
                    cb.ReportSkip, cb.CardReportOpen, cb.CardReportReason, cb.CardReportBack,
                    cb.SetReportOpen, cb.SetReportReason, cb.SetReportBack),
        }  # fmt: skip
        _bound(self.in_group, Place.GROUP)
        _bound(self.in_private, Place.PRIVATE)

    async def __call__(self, update: Update, context: BotContext) -> None:
        query, chat = update.callback_query, update.effective_chat
        if query is None:
            return
        tapper, tr = context.learner, context.tr
        data = cb.parse(query.data)
        kind = chat.type if chat is not None else None  # None: an inline message, never ours
        if data is None:
            await _refuse(query, tr, private=kind == Chat.PRIVATE)
        elif cb.TABLE.place(type(data)) is Place.GROUP:
            if chat is None or kind not in GROUPS:
                await _refuse(query, tr)  # forged: must not record a chat as a group
            else:
                await self.in_group[type(data)](query, tapper, chat, data)
        elif kind != Chat.PRIVATE:
            await acknowledge(query, tr._("This button works in a private chat with me."))
        else:
            await self.in_private[type(data)](query, tapper, data)


def _each(handler: InPrivate, *kinds: type) -> dict[type, InPrivate]:
    return dict.fromkeys(kinds, handler)


def _bound(routes: Mapping[type, object], place: Place) -> None:
    """Start-up stops unless `routes` holds exactly the kinds bound to `place`."""
    wanted = {kind for kind in cb.TABLE.by_class if cb.TABLE.place(kind) is place}
    if set(routes) != wanted:
        names = sorted(kind.__name__ for kind in set(routes) ^ wanted)
        raise ValueError(f"{place} button routes do not match the callbacks table: {names}")


async def _refuse(query: CallbackQuery, tr: Translator, *, private: bool = False) -> None:
    if private:
        await acknowledge(query, tr._("This button has expired. /quizzes to start again."))
    else:
        await acknowledge(query, tr._("This button has expired."))
