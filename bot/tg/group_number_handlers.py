"""Members' replies to a group run's number question (when the group takes typed answers).

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

from telegram import Update

from bot.i18n import translator
from bot.tg import number_render
from bot.tg.context import BotContext
from bot.tg.member_replies import CourtesyReplies
from bot.tg.topics import thread_of
from bot.usecases import group_answers as ga
from bot.usecases.group_settings import GroupSettingsCases


class GroupTypedReplies:
    def __init__(
        self, settings: GroupSettingsCases, answers: ga.GroupAnswers, courtesy: CourtesyReplies
    ) -> None:
        self.settings = settings
        self.answers = answers
        self.courtesy = courtesy

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
