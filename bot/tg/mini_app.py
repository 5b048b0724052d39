"""How chats open the Mini App dashboard: buttons, the menu button, and the admin check it uses.

Private chats get a `web_app` button (and the menu button); groups cannot carry `web_app`
buttons, so /groupstats links to the app directly (`t.me/<bot>/<app>?startapp=g<chat>`), which
needs the app's short name from BotFather. Nothing here is used unless a public URL is set.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MenuButtonWebApp,
    WebAppInfo,
)
from telegram.error import BadRequest, InvalidToken, TelegramError

from bot.config import TokenRefused
from bot.core.dashboard_math import group_start_param
from bot.i18n import Translator
from bot.usecases.group_admins import FetchStatus

log = logging.getLogger(__name__)

# Telegram's answers to getChatMember about a person it cannot place in the chat (an id it does
# not know, or no member record): about that person only, never about the chat.
_UNKNOWN_PERSON = ("user not found", "participant_id_invalid", "member not found")


async def status_in(bot: Bot, chat_id: int, user_id: int) -> str:
    """A person's status in a chat; "left" where Telegram does not know them there, so that a
    stranger's check cannot pass for the chat being unreachable (which would shut out its
    admins too). Chat-level errors (chat not found, the bot removed) still raise."""
    try:
        return str((await bot.get_chat_member(chat_id, user_id)).status)
    except BadRequest as exc:
        if any(words in exc.message.lower() for words in _UNKNOWN_PERSON):
            return "left"
        raise


@dataclass(frozen=True, slots=True)
class DashboardLinks:
    url: str  # the dashboard's public HTTPS address
    short_name: str | None = None  # the Mini App's short name, for links from groups

    def label(self, tr: Translator) -> str:
        return tr._("📊 Dashboard")

    def private_keyboard(self, tr: Translator) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            [[InlineKeyboardButton(self.label(tr), web_app=WebAppInfo(self.url))]]
        )

    def group_keyboard(
        self, tr: Translator, bot_username: str | None, chat_id: int
    ) -> InlineKeyboardMarkup | None:
        if not self.short_name or not bot_username:
            return None
        link = (
            f"https://t.me/{bot_username}/{self.short_name}?startapp={group_start_param(chat_id)}"
        )
        return InlineKeyboardMarkup([[InlineKeyboardButton(self.label(tr), url=link)]])

    async def set_menu_button(self, bot: Bot, tr: Translator) -> None:
        """Private chats' menu button opens the dashboard (the default for every private chat)."""
        try:
            await bot.set_chat_menu_button(
                menu_button=MenuButtonWebApp(self.label(tr), WebAppInfo(self.url))
            )
        except TelegramError as exc:  # the bot still works without it: say so, carry on
            log.warning("could not set the dashboard menu button: %s", exc)


@asynccontextmanager
async def member_status(token: str, base_url: str) -> AsyncIterator[FetchStatus]:
    """(chat_id, user_id) -> member status through the Bot API, for `quizbot web` on its own
    (beside the bot, the bot's own cached check is used). Raises if the token is refused."""
    bot = Bot(token, base_url=base_url)
    try:
        await bot.initialize()  # getMe: a wrong token fails here, at start-up
    except BaseException as exc:
        await bot.shutdown()  # its HTTP sessions, opened before getMe
        if isinstance(exc, InvalidToken):  # its text quotes the token
            raise TokenRefused from None
        raise

    async def fetch(chat_id: int, user_id: int) -> str:
        return await status_in(bot, chat_id, user_id)

    try:
        yield fetch
    finally:
        await bot.shutdown()
