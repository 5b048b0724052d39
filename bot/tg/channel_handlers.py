"""The bot added to a channel: it leaves, and tells whoever added it why (privately, if they
ever started the bot: Telegram forbids writing first).

A quiz needs people who answer as themselves; a channel's posts are the channel's and its
readers cannot tap an answer under their own names, so nothing the bot does works there.
Before, it stayed silent in the channel, and its adder never learnt why nothing happened.
"""

from __future__ import annotations

import logging

from telegram import Chat, Update
from telegram.error import TelegramError
from telegram.ext import ChatMemberHandler

from bot.i18n import translator
from bot.tg.context import BotContext
from bot.tg.quiz_links import add_to_group_keyboard
from bot.tg.screen_render import shown_name
from bot.usecases.learner_profile import Learners

log = logging.getLogger(__name__)
PRESENT = frozenset({"administrator", "member"})  # how a bot can be in a channel


class ChannelMembership(ChatMemberHandler[BotContext, None]):
    """The bot's own membership changes in channels only (before the groups' handler)."""

    def __init__(self, callback: ChannelHandlers) -> None:
        super().__init__(callback.my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER)

    def check_update(self, update: object) -> bool:
        return (
            isinstance(update, Update)
            and update.my_chat_member is not None
            and update.my_chat_member.chat.type == Chat.CHANNEL
        )


class ChannelHandlers:
    def __init__(self, learners: Learners) -> None:
        self.learners = learners

    async def my_chat_member(self, update: Update, context: BotContext) -> None:
        change = update.my_chat_member
        if change is None or change.new_chat_member.status not in PRESENT:
            return  # removed, or left on its own: nothing to do
        if change.old_chat_member.status in PRESENT:
            return  # promoted or demoted while still there (it left when added)
        channel, adder = change.chat, change.from_user
        log.info("added to channel %s by %s: quizzes cannot run in a channel, leaving it",
                 channel.id, adder.id)  # fmt: skip
        try:
            await context.bot.leave_chat(channel.id)
        except TelegramError as exc:  # removed meanwhile: gone all the same
            log.info("leaving channel %s: %s", channel.id, exc)
        if adder.is_bot or not await self.learners.started_privately(adder.id):
            return
        learner = await self.learners.resolve(adder.id, adder.first_name, adder.language_code)
        tr = translator(learner.lang)
        text = tr._(
            "📢 You added me to the channel {channel}, but quizzes cannot run in a channel: "
            "nobody there can tap an answer as themselves. So I left it. Add me to a group "
            "instead: each member answers and gets their own score.",
            channel=f"<b>{shown_name(channel.title)}</b>",
        )
        keyboard = add_to_group_keyboard(tr, context.bot.username)
        try:
            await context.bot.send_message(adder.id, text, reply_markup=keyboard)
        except TelegramError as exc:  # blocked the bot since: nobody to tell
            log.info("channel notice to %s not sent: %s", adder.id, exc)
