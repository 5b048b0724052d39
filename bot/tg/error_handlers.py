"""The error handler (`ErrorHandlers._on_error`, a part of `QuizBot`): an exception that escaped
a handler is logged, the user is told in their language, never shown a traceback, and the
admin chat (if any) gets one line about it, the token masked.
"""

from __future__ import annotations

import html
import logging

from telegram import Update
from telegram.error import ChatMigrated, Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.i18n import translator
from bot.tg.options import BotOptions
from bot.tg.topics import chat_gone, reply_thread
from bot.usecases.group_settings import GroupMoved
from bot.usecases.learner_profile import Learners

log = logging.getLogger(__name__)


class ErrorHandlers:
    """What `QuizBot` (bot/tg/app.py) registers as PTB's error handler; it sets what is read
    here when it is built."""

    options: BotOptions
    learners: Learners

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log first, then tell the user in their language; never show them a traceback."""
        if _chat_gone(context.error):
            # The user blocked the bot, left the chat, or the account or group was deleted
            # meanwhile: nobody to tell, nothing to fix.
            log.info("chat unreachable: %s", context.error)
            return
        if isinstance(context.error, ChatMigrated | GroupMoved):
            await self._moved(update, context.error.new_chat_id)
            return
        log.error("error while handling an update", exc_info=context.error)
        if not isinstance(update, Update):
            return
        user = update.effective_user
        lang = await self._safe_language(user.id, user.language_code) if user else "en"
        tr = translator(lang)
        text = tr._("Sorry, something went wrong on my side. Please try again.")
        try:
            if update.callback_query is not None:
                try:
                    await update.callback_query.answer(text[:200], show_alert=True)
                    text = ""
                except Exception:  # already answered, or too old: say it in the chat instead
                    log.info("could not answer the callback query about an error")
            if text and update.effective_chat is not None:
                chat_id = update.effective_chat.id  # in a forum, in the update's topic
                thread = reply_thread(chat_id) or None
                await context.bot.send_message(chat_id, text, message_thread_id=thread)
        except Exception:  # the error path must not raise in turn
            log.warning("could not tell the user about an error", exc_info=True)
        if self.options.admin_chat_id is not None:
            error = context.error
            detail = str(error).replace(self.options.token, "<token>")  # never in a chat
            # Cut, then escape: a cut of the escaped text could split `&amp;`, which Telegram
            # refuses.
            note = f"⚠️ {html.escape(type(error).__name__)}: {html.escape(detail[:500])}"
            try:
                await context.bot.send_message(self.options.admin_chat_id, note)
            except Exception:
                log.warning("could not notify the admin chat", exc_info=True)

    async def _moved(self, update: object, new_chat_id: int) -> None:
        """A button left in the old chat of a group upgraded to a supergroup: Telegram refuses
        every send and edit there, and the group's settings, runs and schedules moved with it.
        Not a fault: one line, and the tapper is told why (the handlers answer a group's
        settings taps only once their edit went through)."""
        log.info("update from a group that became supergroup %s: not handled", new_chat_id)
        if not isinstance(update, Update) or update.callback_query is None:
            return
        user = update.effective_user
        lang = await self._safe_language(user.id, user.language_code) if user else "en"
        text = translator(lang)._(
            "This group became a supergroup, so this button no longer works. "
            "Send the command again in the group."
        )
        try:
            await update.callback_query.answer(text, show_alert=True)
        except TelegramError as exc:  # already answered, or too old
            log.info("could not answer a tap from a group's old chat: %s", exc)

    async def _safe_language(self, user_id: int, code: str | None) -> str:
        try:
            return await self.learners.language(user_id, code)
        except Exception:
            return self.options.default_language


def _chat_gone(error: object) -> bool:
    """Telegram's answers meaning the chat is no longer reachable: any 403 (blocked, kicked), or
    a 400 naming a chat gone (the account or group deleted between its update and the reply)."""
    return isinstance(error, Forbidden) or (isinstance(error, Exception) and chat_gone(error))
