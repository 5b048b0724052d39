"""The buttons that pass a quiz on: t.me deep links into it (privately, or adding the bot to a
group straight into it) and 📤 Share, which opens inline mode in a chat the user picks.

Share is a `switch_inline_query` button: it works only when inline mode is on (@BotFather's
/setinline), which the bot learns from getMe's `supports_inline_queries`; otherwise it is left
out rather than shown to do nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator

# The payload of the plain "add me to a group" link (bot/tg/wrong_chat_handlers.py): not a quiz.
# Telegram's client sends `/start@bot true` in the group the user picks.
PLAIN_GROUP_LINK = "true"
PLAIN_GROUP_START = rf"^/start(@\w+)?\s+{PLAIN_GROUP_LINK}\s*$"


def add_to_group(username: str) -> str:
    """The plain link that adds the bot to a group the user picks."""
    return f"https://t.me/{username}?startgroup={PLAIN_GROUP_LINK}"


def add_to_group_keyboard(tr: Translator, username: str) -> InlineKeyboardMarkup:
    """ "➕ Add me to a group", on the plain link: under a group-only command sent privately,
    and under the word to whoever added the bot to a channel."""
    button = InlineKeyboardButton(tr._("➕ Add me to a group"), url=add_to_group(username))
    return InlineKeyboardMarkup([[button]])


@dataclass(frozen=True, slots=True)
class QuizLinks:
    username: str
    inline: bool  # getMe's supports_inline_queries

    @classmethod
    def of(cls, bot: Bot) -> QuizLinks:
        """The running bot's links (its username and inline flag come from getMe at start)."""
        return cls(bot.username, bool(bot.supports_inline_queries))

    def take(self, tr: Translator, quiz_id: str) -> InlineKeyboardButton:
        """Into the quiz, in a private chat with the bot."""
        url = f"https://t.me/{self.username}?start={quiz_id}"
        return InlineKeyboardButton(tr._("▶️ Take it"), url=url)

    def play_in_group(self, tr: Translator, quiz_id: str) -> InlineKeyboardButton:
        """Add the bot to a group the user picks; it arrives with `/start@bot <quiz id>`."""
        url = f"https://t.me/{self.username}?startgroup={quiz_id}"
        return InlineKeyboardButton(tr._("👥 Play in a group"), url=url)

    def share(self, tr: Translator, quiz_id: str) -> list[InlineKeyboardButton]:
        """📤 Share (the quiz id as the inline query), or nothing when inline mode is off."""
        if not self.inline:
            return []
        return [InlineKeyboardButton(tr._("📤 Share"), switch_inline_query=quiz_id)]
