"""A group member's taps on a select-all question: toggles and Submit, answered by popups that
only the tapper sees (the shared question message never shows anyone's selection)."""

from __future__ import annotations

from telegram import CallbackQuery, Chat

from bot.core.group_run import fit_popup
from bot.core.markup import plain
from bot.i18n import Translator, translator
from bot.tg import callbacks as cb
from bot.tg import select_render
from bot.tg.private_handlers import acknowledge
from bot.usecases import group_answers as ga
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.learner_profile import Learner
from bot.usecases.outcomes import AlreadyAnswered, NothingSelected, NotYours


class GroupSelectHandlers:
    def __init__(self, settings: GroupSettingsCases, answers: ga.GroupAnswers) -> None:
        self.settings_ = settings
        self.answers = answers

    async def toggle(
        self, query: CallbackQuery, member: Learner, chat: Chat, data: cb.GroupToggle
    ) -> None:
        """Select or unselect one option; the popup tells the tapper alone what they chose."""
        group = await self.settings_.settings(chat.id)
        outcome = await self.answers.toggle(
            chat.id, data.run_id, data.question, data.position, member, group.language
        )
        tr = translator(outcome.lang)
        if isinstance(outcome, ga.Toggled):
            await acknowledge(
                query, select_render.selection_popup(tr, outcome.order, outcome.selected)
            )
        else:
            await acknowledge(query, _refusal(tr, outcome))

    async def submit(
        self, query: CallbackQuery, member: Learner, chat: Chat, data: cb.GroupSubmit
    ) -> None:
        """The member's selection becomes their answer: stored first, then the popup (the
        verdict only when the group shows verdicts in popups; otherwise at the reveal)."""
        group = await self.settings_.settings(chat.id)
        outcome = await self.answers.submit(
            chat.id, data.run_id, data.question, member, group.language
        )
        tr = translator(outcome.lang)
        match outcome:
            case ga.Submitted(lang, quiz, order, judgement):
                # As for one-choice answers: a toast for "recorded", an alert for a verdict.
                if group.popup_verdict:
                    head = select_render.verdict(tr, judgement, order)
                    body = quiz.questions[judgement.question_index].explanation.get(lang)
                    text = fit_popup(plain(head), plain(body))
                    await acknowledge(query, text, show_alert=True)
                else:  # no give-away: the verdict comes with the reveal, for everyone at once
                    text = select_render.recorded(tr, order, judgement.selected)
                    await acknowledge(query, text)
            case NothingSelected():
                await acknowledge(query, select_render.nothing_selected(tr), show_alert=True)
            case _:
                await acknowledge(query, _refusal(tr, outcome))


def _refusal(tr: Translator, outcome: object) -> str:
    if isinstance(outcome, AlreadyAnswered):
        return tr._("You already answered this question.")
    if isinstance(outcome, NotYours):
        return tr._("This button belongs to another chat.")
    return tr._("This question is closed.")
