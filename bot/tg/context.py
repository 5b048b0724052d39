"""The context every handler receives: the learner behind the update and their translator,
and the forum topic it is answered in, resolved once per update by `LearnerResolver` (a
`TypeHandler` in group -1) instead of in each handler.
"""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot

from bot.core.courtesy import Reply
from bot.i18n import Translator, translator
from bot.tg.topics import set_reply_thread, thread_of
from bot.usecases.learner_profile import Learner, Learners


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """PTB's context plus who sent the update. Jobs get one too, with nobody resolved."""

    def __init__(
        self,
        application: Application[Any, Any, Any, Any, Any, Any],
        chat_id: int | None = None,
        user_id: int | None = None,
    ) -> None:
        super().__init__(application, chat_id=chat_id, user_id=user_id)
        self._learner: Learner | None = None
        # Where a member's group command is answered, decided before it runs
        # (bot/tg/member_replies.py); None: an admin's command, or not a group command.
        self.courtesy: Reply | None = None
        # The forum topic the update is answered in (0: none), bot/tg/topics.py.
        self.thread_id = 0

    @property
    def learner(self) -> Learner:
        """The sender, resolved before any handler ran; an update without one never gets here
        (every handler that reads it is for messages and taps, which have a sender)."""
        if self._learner is None:
            raise LookupError("no learner resolved for this update")
        return self._learner

    @learner.setter
    def learner(self, value: Learner) -> None:
        self._learner = value

    @property
    def tr(self) -> Translator:
        """The translator of the sender's reply language."""
        return translator(self.learner.lang)


CONTEXT_TYPES = ContextTypes(context=BotContext)


class LearnerResolver:
    """Group -1: who sent this update, which language and which forum topic to answer in,
    once (the topic for every update, so none inherits the previous update's)."""

    def __init__(self, learners: Learners) -> None:
        self.learners = learners

    async def __call__(self, update: Update, context: BotContext) -> None:
        context.thread_id = thread_of(update)
        chat = update.effective_chat
        set_reply_thread(chat.id if chat is not None else 0, context.thread_id)
        user = update.effective_user
        if user is not None:
            context.learner = await self.learners.resolve(
                user.id, user.first_name, user.language_code
            )
