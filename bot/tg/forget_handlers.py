"""/forget in a private chat: a confirmation button, then everything the bot holds about the
learner is deleted (see `bot/store/forget.py` for what is deleted and what is kept, and why).

The button's data names the user it was made for (`forget:<user id>:yes|no`). Callback data is
attacker-controlled, so a tap counts only in a private chat, from that same user, in their own
chat: anyone else's tap, or one from a group, changes nothing.
"""

from __future__ import annotations

import logging
import re

from telegram import CallbackQuery, Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest

from bot.tg.context import BotContext
from bot.tg.screen_render import Screen
from bot.tg.screen_send import acknowledge, send
from bot.usecases.forgetting import Forgetting

log = logging.getLogger(__name__)
CALLBACK_PATTERN = r"^forget:"
_DATA = re.compile(r"^forget:(\d{1,12}):(yes|no)$")


def confirm_data(user_id: int, answer: str) -> str:
    return f"forget:{user_id}:{answer}"


class ForgetHandlers:
    def __init__(self, forgetting: Forgetting) -> None:
        self.forgetting = forgetting

    async def command(self, update: Update, context: BotContext) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        tr = context.tr
        text = tr._(
            "This deletes everything I keep about you: your name, language and time zone, your "
            "quizzes and answers, your review queue and your reminder. In groups, your answers "
            "stay counted, but no longer carry your name or id. This cannot be undone."
        )
        keyboard = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        tr._("Delete my data"), callback_data=confirm_data(user.id, "yes")
                    ),
                    InlineKeyboardButton(tr._("Cancel"), callback_data=confirm_data(user.id, "no")),
                ]
            ]
        )
        await send(message, Screen(text, keyboard))

    async def callback(self, update: Update, context: BotContext) -> None:
        query, user, chat = update.callback_query, update.effective_user, update.effective_chat
        if query is None or user is None:
            return
        tr = context.tr
        match = _DATA.match(query.data or "")
        if (
            match is None
            or chat is None
            or chat.type != Chat.PRIVATE
            or chat.id != user.id
            or int(match[1]) != user.id
        ):
            await acknowledge(query, tr._("This button has expired."))
            return
        if match[2] == "no":
            await acknowledge(query)
            await _edit(query, tr._("Nothing was deleted."))
            return
        await self.forgetting.forget(user.id)
        await acknowledge(query)
        await _edit(query, tr._("Done: I have forgotten you. /start to begin again."))


async def _edit(query: CallbackQuery, text: str) -> None:
    try:
        await query.edit_message_text(text, reply_markup=None)
    except BadRequest as exc:  # the confirmation is gone or unchanged: nothing to fail over
        log.info("forget confirmation edit refused: %s", exc)
