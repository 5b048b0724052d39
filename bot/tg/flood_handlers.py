"""Group -1: a person flooding their private chat is told once to slow down, and the rest of
the burst is dropped until they are calm again (the rules: bot/core/bursts.py).

Before: 100 commands sent in a burst got 100 replies, paced at Telegram's 1 a second, and the
person's later taps waited minutes behind them. A tap is never counted nor dropped here (an
answer is committed data; see bot/core/bursts.py): only `update.message` in a private chat is.

The check is `check_update`'s, so a passing message costs a dict look-up and no await: PTB asks
each handler of group -1 in turn, at most once per update, and this one before the sender is
resolved (a held message is not looked up in the store, but for the one notice).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Chat, Update
from telegram.error import TelegramError
from telegram.ext import Application, ApplicationHandlerStop, BaseHandler

from bot.core.bursts import Bursts, Verdict
from bot.i18n import Translator, translator
from bot.tg.context import BotContext
from bot.tg.topics import set_reply_thread
from bot.usecases.learner_profile import Learners

log = logging.getLogger(__name__)


def slow_down(tr: Translator) -> str:
    return tr._(
        "🐢 Slow down, please: that was a lot of messages at once. I am skipping what you send "
        "for a few seconds; write again in a moment."
    )


class PrivateFloods(BaseHandler[Update, BotContext, None]):
    """Holds a person's messages past their burst (`Bursts`), before any other handler."""

    def __init__(self, learners: Learners, bursts: Bursts) -> None:
        super().__init__(self._unused)
        self.learners = learners
        self.bursts = bursts

    def check_update(self, update: object) -> Verdict | None:
        """The verdict on a private message held (None: not one, or it passes)."""
        if not isinstance(update, Update):
            return None
        message = update.message
        if message is None or message.chat.type != Chat.PRIVATE or message.from_user is None:
            return None
        verdict = self.bursts.message(message.from_user.id, message.date.timestamp())
        return None if verdict is Verdict.PASS else verdict

    async def handle_update(
        self,
        update: Update,
        application: Application[Any, BotContext, Any, Any, Any, Any],
        check_result: object,
        context: BotContext,
    ) -> None:
        message = update.message
        user = message.from_user if message is not None else None
        if message is None or user is None:
            raise ApplicationHandlerStop
        if check_result is not Verdict.NOTICE:
            log.debug("message %d of %d dropped: a burst in their private chat",
                      message.message_id, user.id)  # fmt: skip
            raise ApplicationHandlerStop
        log.info("%d sent a burst in their private chat: told to slow down once, the rest "
                 "dropped until calm", user.id)  # fmt: skip
        learner = await self.learners.resolve(user.id, user.first_name, user.language_code)
        set_reply_thread(message.chat.id, 0)  # a private chat has no topics
        try:
            await context.bot.send_message(message.chat.id, slow_down(translator(learner.lang)))
        except TelegramError as exc:  # blocked meanwhile, or the chat is gone: nobody to tell
            log.info("slow-down notice to %d not sent: %s", user.id, exc)
        raise ApplicationHandlerStop

    @staticmethod
    async def _unused(update: Update, context: BotContext) -> None:
        """`handle_update` is overridden: it reads the verdict `check_update` gave."""
