"""Members' answers in a group run, every kind: a tap on a single-choice, true/false or
flashcard button, a select-all question's toggles and Submit, and a typed reply to a number
question (when the group takes typed answers). Each calls `bot/usecases/group_answers.py`,
then answers the member: popups only the tapper sees, in their language (the shared question
message never shows anyone's selection), stored first.

What a real group wants is no flood: Telegram allows a bot about 20 messages a minute in a
group, and a quiz already spends most of them. So a counted reply gets no message (the live
line "👥 n answers so far" counts it, and the reveal shows how many were right); a second reply
from the same member is ignored (only the first counts, as the question says); a reply that is
no number gets one short hint, at most once per member and `HINTS_PER_QUESTION` per question
(bot/core/courtesy.py: a few show everyone how to reply), so they can try again; the hints are
claimed in the store, so the cap holds with several workers, and posted as courtesy replies,
after the run's own sends (bot/tg/member_replies.py).
"""

from __future__ import annotations

from telegram import CallbackQuery, Chat, Update

from bot.core.group_run import fit_popup
from bot.core.markup import plain
from bot.i18n import Translator, translator
from bot.tg import callbacks as cb
from bot.tg import group_run_render, number_render, select_render
from bot.tg.context import BotContext
from bot.tg.member_replies import CourtesyReplies
from bot.tg.screen_send import acknowledge
from bot.tg.topics import thread_of
from bot.usecases import group_answers as ga
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.learner_profile import Learner
from bot.usecases.outcomes import AlreadyAnswered, NothingSelected, NotYours


class GroupAnswerHandlers:
    def __init__(
        self, settings: GroupSettingsCases, answers: ga.GroupAnswers, courtesy: CourtesyReplies
    ) -> None:
        self.settings = settings
        self.answers = answers
        self.courtesy = courtesy

    # -- buttons (the router checked they come from a group) ----------------------------------

    async def tap(
        self, query: CallbackQuery, member: Learner, chat: Chat, data: cb.GroupAnswer
    ) -> None:
        """A member's tap: stored first, then the popup in that member's language."""
        group = await self.settings.settings(chat.id)
        outcome = await self.answers.tap(
            chat.id, data.run_id, data.question, data.position, member, group.language
        )
        tr = translator(outcome.lang)
        match outcome:
            case ga.Answered(lang, quiz, judgement):
                # A toast for the one-line "recorded" (an alert is a modal every member would
                # dismiss mid-question); an alert for a verdict, whose explanation needs reading.
                if group.popup_verdict:
                    popup = group_run_render.popup(tr, quiz, judgement, lang)
                    await acknowledge(query, popup, show_alert=True)
                else:  # no give-away: the verdict comes with the reveal, for everyone at once
                    await acknowledge(query, group_run_render.recorded(tr, judgement))
            case _:
                await acknowledge(query, _refusal(tr, outcome))

    async def toggle(
        self, query: CallbackQuery, member: Learner, chat: Chat, data: cb.GroupToggle
    ) -> None:
        """Select or unselect one option; the popup tells the tapper alone what they chose."""
        group = await self.settings.settings(chat.id)
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
        group = await self.settings.settings(chat.id)
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

    # -- typed replies to a number question ---------------------------------------------------

    async def reply(self, update: Update, context: BotContext) -> None:
        message, chat = update.effective_message, update.effective_chat
        if message is None or chat is None or message.text is None:
            return
        replied = message.reply_to_message
        if message.from_user is None or message.sender_chat is not None:
            return  # only a member's own message (not a channel or anonymous admin)
        if replied is None or replied.forum_topic_created is not None:  # (in a topic: no reply)
            await self._not_a_reply(update, context, message.text)
            return
        group = await self.settings.settings(chat.id)
        member = context.learner
        lang = member.language_in(group.language)
        outcome = await self.answers.typed(
            chat.id,
            replied.message_id,
            message.text,
            member,
            group.language,
            translator(lang).decimal_separator,
        )
        if isinstance(outcome, ga.Unreadable):
            # In the group's language: the group reads it.
            tr = translator(group.language)
            hint = number_render.group_unreadable(
                tr, member.first_name, outcome.question, outcome.ambiguous
            )
            await self.courtesy.hint(chat.id, member.user_id, outcome.run_id, outcome.index, hint)

    async def _not_a_reply(self, update: Update, context: BotContext, text: str) -> None:
        """A number typed in the group, not as a reply: if a number question is open in its
        topic, one hint (claimed as the unreadable replies' are) says to reply to it. Telegram
        shows a bot such messages only where it is an admin (or its privacy mode is off): in
        privacy mode the question's "Reply to this message" is all a member gets."""
        chat = update.effective_chat
        if chat is None:
            return
        outcome = await self.answers.sent_without_reply(chat.id, thread_of(update), text)
        if not isinstance(outcome, ga.NeedsReply):
            return
        group = await self.settings.settings(chat.id)
        tr = translator(group.language)  # the group reads it
        hint = number_render.reply_to_answer(tr, context.learner.first_name)
        await self.courtesy.hint(chat.id, context.learner.user_id, outcome.run_id,
                                 outcome.index, hint)  # fmt: skip


def _refusal(tr: Translator, outcome: object) -> str:
    if isinstance(outcome, AlreadyAnswered):
        return tr._("You already answered this question.")
    if isinstance(outcome, NotYours):
        return tr._("This button belongs to another chat.")
    return tr._("This question is closed.")
