"""The "⚠️ Report" buttons and the sentence that may follow: parse, call `ProblemReporting`,
render (bot/tg/report_render.py).

The router (bot/tg/buttons.py) has already checked that a report button was tapped in a private
chat. Here a tap changes a message only in the tapper's own chat, and only when the use case
found the attempt to be theirs; a refusal is a popup and nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, InlineKeyboardMarkup, Update
from telegram.error import BadRequest

from bot.core.problem_report import Reason
from bot.i18n import Translator, translator
from bot.tg import callbacks as cb
from bot.tg import question_render
from bot.tg import report_render as rr
from bot.tg import rounds_render as review_render
from bot.tg.context import BotContext
from bot.tg.screen_send import acknowledge, reply, send
from bot.usecases import problem_reporting as pr
from bot.usecases.learner_profile import Learner

log = logging.getLogger(__name__)
TextHandler = Callable[[Update, BotContext], Awaitable[None]]


class ReportHandlers:
    def __init__(self, reporting: pr.ProblemReporting, otherwise: TextHandler) -> None:
        self.reporting = reporting
        # What private text that is no report's sentence gets (the "I only understand" hint).
        self.otherwise = otherwise

    async def callback(self, query: CallbackQuery, learner: Learner, data: cb.Callback) -> None:
        tr, user_id = translator(learner.lang), learner.user_id
        match data:
            case cb.ReportOpen(attempt_id, index):
                opened = await self.reporting.open(user_id, attempt_id, index)
                if isinstance(opened, pr.Reportable) and _own_chat(query, user_id):
                    await acknowledge(query)
                    await _keyboard(query, rr.reasons_keyboard(tr, attempt_id, index))
                else:
                    await acknowledge(query, rr.refused(tr), show_alert=True)
            case cb.ReportBack(attempt_id, index):
                opened = await self.reporting.open(user_id, attempt_id, index)
                if isinstance(opened, pr.Reportable) and _own_chat(query, user_id):
                    await acknowledge(query)
                    await _keyboard(query, _answered(tr, opened))
                else:
                    await acknowledge(query, rr.refused(tr), show_alert=True)
            case cb.ReportReason(attempt_id, index, code):
                reason = Reason.from_code(code)
                await self._reason(
                    query,
                    learner,
                    reason,
                    lambda r: self.reporting.report(user_id, attempt_id, index, r, learner.lang),
                )
            case cb.CardReportOpen(round_id, index) | cb.CardReportBack(round_id, index):
                card = await self.reporting.open_card(user_id, round_id, index)
                if isinstance(card, pr.CardReportable) and _own_chat(query, user_id):
                    await acknowledge(query)
                    back = isinstance(data, cb.CardReportBack)
                    keyboard = (
                        _answered(tr, card)
                        if back
                        else rr.reasons_keyboard(tr, round_id, index, card=True)
                    )
                    await _keyboard(query, keyboard)
                else:
                    await acknowledge(query, rr.refused(tr), show_alert=True)
            case cb.CardReportReason(round_id, index, code):
                await self._reason(
                    query,
                    learner,
                    Reason.from_code(code),
                    lambda r: self.reporting.report_card(user_id, round_id, index, r, learner.lang),
                )
            case cb.SetReportOpen(set_id, index) | cb.SetReportBack(set_id, index):
                found = await self.reporting.open_set(user_id, set_id, index)
                if isinstance(found, pr.SetReportable) and _own_chat(query, user_id):
                    await acknowledge(query)
                    keyboard = (
                        rr.set_answered_keyboard(tr, set_id, index)
                        if isinstance(data, cb.SetReportBack)
                        else rr.set_reasons_keyboard(tr, set_id, index)
                    )
                    await _keyboard(query, keyboard)
                else:
                    await acknowledge(query, rr.refused(tr), show_alert=True)
            case cb.SetReportReason(set_id, index, code):
                await self._reason(
                    query,
                    learner,
                    Reason.from_code(code),
                    lambda r: self.reporting.report_set(user_id, set_id, index, r, learner.lang),
                )
            case cb.ReportSkip(report_id):
                if not _own_chat(query, user_id):
                    await acknowledge(query, rr.refused(tr), show_alert=True)
                    return
                match await self.reporting.skip(user_id, report_id):
                    case pr.Skipped():
                        await acknowledge(query)
                        await _edit(query, rr.thanks(tr).text)
                    case pr.NotWaiting():  # the sentence came already, or Skip was tapped
                        await acknowledge(query, rr.thanks(tr).text)
                    case _:  # no report of theirs by that id: forged, or forgotten since
                        await acknowledge(query, rr.expired(tr))

    async def _reason(
        self,
        query: CallbackQuery,
        learner: Learner,
        reason: Reason | None,
        store: Callable[[Reason], Awaitable[pr.ReportOutcome]],
    ) -> None:
        """A reason picked, on a quiz question or a round's card (`store` keeps it)."""
        tr, user_id = translator(learner.lang), learner.user_id
        if reason is None or not _own_chat(query, user_id):
            await acknowledge(query, rr.refused(tr), show_alert=True)
            return
        outcome = await store(reason)
        match outcome:
            case pr.Reported(place, report_id, chosen):
                await acknowledge(query)
                await _keyboard(query, _answered(tr, place))
                await reply(query, rr.invitation(tr, chosen, report_id))
            case pr.AlreadyReported(place):
                await acknowledge(query, rr.already(tr), show_alert=True)
                await _keyboard(query, _answered(tr, place))
            case _:
                await acknowledge(query, rr.refused(tr), show_alert=True)

    async def text(self, update: Update, context: BotContext) -> None:
        """Private text (not a command): a waiting report's sentence, else the usual hint."""
        message = update.effective_message
        if message is None or message.text is None:
            return
        learner = context.learner
        match await self.reporting.sentence(learner.user_id, message.text):
            case pr.SentenceAdded():
                await send(message, rr.thanks(context.tr))
            case pr.EmptySentence():
                await send(message, rr.empty_sentence(context.tr))
            case _:
                await self.otherwise(update, context)


def _answered(tr: Translator, place: pr.Place) -> InlineKeyboardMarkup:
    """The answered question's own buttons, back in place of the reasons."""
    if isinstance(place, pr.SetReportable):
        return rr.set_answered_keyboard(tr, place.set_id, place.index)
    if isinstance(place, pr.CardReportable):
        return review_render.answered_keyboard(tr, place.round_id, place.index, place.last)
    return question_render.answered_keyboard(tr, place.quiz, place.attempt.id, place.index)


def _own_chat(query: CallbackQuery, user_id: int) -> bool:
    """A report button changes a message only in the tapper's own private chat."""
    return query.message is not None and query.message.chat.id == user_id


async def _keyboard(query: CallbackQuery, keyboard: InlineKeyboardMarkup) -> None:
    """Swap the tapped message's buttons (the text stays): the reasons, or the answered ones."""
    try:
        await query.edit_message_reply_markup(keyboard)
    except BadRequest as exc:
        log.info("keyboard edit refused: %s", exc)


async def _edit(query: CallbackQuery, text: str) -> None:
    try:
        await query.edit_message_text(text)
    except BadRequest as exc:
        log.info("edit refused: %s", exc)
