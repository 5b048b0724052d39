"""The bot's command menus and descriptions, in every language, published at start-up.

The menus are data (`MENUS`), so tests can hold them against the handlers `app.py` registers
and against the README. Telegram shows one list per chat, chosen by scope then language
(`language_code` "" is the fallback, in English): a group administrator sees the
administrators' list *instead of* the group one, so that list repeats the members' commands.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
)
from telegram.error import TelegramError

from bot.i18n import N_, SUPPORTED_LANGUAGES, translator

log = logging.getLogger(__name__)

# Telegram's fallback menu and descriptions (language_code "") are in this language.
FALLBACK_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class MenuCommand:
    name: str
    description: str  # an English msgid, translated when published


PRIVATE: tuple[MenuCommand, ...] = (
    MenuCommand("start", N_("Welcome and the list of quizzes")),
    MenuCommand("quizzes", N_("The list of quizzes")),
    MenuCommand("practice", N_("A practice set from the guides and level you choose")),
    MenuCommand("exam", N_("A quiz against the clock, explanations at the end")),
    MenuCommand("review", N_("Go over the questions you missed")),
    MenuCommand("stats", N_("Your progress, and your place in your groups")),
    MenuCommand("remind", N_("A daily reminder when reviews are due")),
    MenuCommand("timezone", N_("Your time zone, for your reminder")),
    MenuCommand("stop", N_("Stop the running review, exam or quiz")),
    MenuCommand("language", N_("Change language")),
    MenuCommand("forget", N_("Delete everything I keep about you")),
    MenuCommand("help", N_("How quizbot works")),
)
GROUP: tuple[MenuCommand, ...] = (
    MenuCommand("help", N_("How quizbot works in a group")),
    MenuCommand("top", N_("Standings: this week, this month, all time")),
    MenuCommand("me", N_("Your place and points in this group")),
)
GROUP_ADMIN: tuple[MenuCommand, ...] = (
    *GROUP,
    MenuCommand("quiz", N_("Pick a quiz for the group")),
    MenuCommand("push", N_("Start a quiz in this group now")),
    MenuCommand("stop", N_("Stop the group's quiz and post the results so far")),
    MenuCommand("settings", N_("Group settings: language, time per question, shuffling, scoring")),
    MenuCommand("schedule", N_("Schedule a quiz on given days at a set time")),
    MenuCommand("schedules", N_("List this group's scheduled quizzes")),
    MenuCommand("unschedule", N_("Remove a scheduled quiz")),
    MenuCommand("timezone", N_("Set the group's time zone")),
    MenuCommand("groupstats", N_("The group's statistics")),
    MenuCommand("upload", N_("Upload the group's own quiz (send a file with /upload)")),
    MenuCommand("quizzes", N_("This group's own quizzes")),
    MenuCommand("deletequiz", N_("Delete one of this group's own quizzes")),
)

# Commands that work in both kinds of chat although one menu leaves them out: /start in a group
# is its /help, and /upload in private asks which group the file is for.
IN_BOTH_CHATS = frozenset({"start", "upload"})


def _names(*menus: tuple[MenuCommand, ...]) -> frozenset[str]:
    return frozenset(c.name for menu in menus for c in menu)


# Where each command lives, read from the menus so a wrong-chat reply cannot drift from them:
# a private-only command sent in a group is answered with a link to the private chat, and a
# group-only one sent privately with a word that it works in a group (tg/wrong_chat_handlers.py).
PRIVATE_ONLY = _names(PRIVATE) - _names(GROUP_ADMIN) - IN_BOTH_CHATS
GROUP_ONLY = _names(GROUP_ADMIN) - _names(PRIVATE) - IN_BOTH_CHATS

# Bot API scope type -> the commands shown there.
MENUS: dict[str, tuple[MenuCommand, ...]] = {
    "all_private_chats": PRIVATE,
    "all_group_chats": GROUP,
    "all_chat_administrators": GROUP_ADMIN,
}
_SCOPES: dict[str, BotCommandScope] = {
    "all_private_chats": BotCommandScopeAllPrivateChats(),
    "all_group_chats": BotCommandScopeAllGroupChats(),
    "all_chat_administrators": BotCommandScopeAllChatAdministrators(),
}

DESCRIPTION = N_(
    "Quizzes on the guides, one question at a time, each answer explained. Take them on your "
    "own here, or add me to a study group and quiz everyone together."
)
SHORT_DESCRIPTION = N_("Quizzes on the guides, with every answer explained.")


def telegram_code(lang: str) -> str:
    """The `language_code` a language is published under ("" for the fallback)."""
    return "" if lang == FALLBACK_LANGUAGE else lang


def commands(scope: str, lang: str) -> list[BotCommand]:
    tr = translator(lang)
    return [BotCommand(c.name, tr._(c.description)) for c in MENUS[scope]]


async def publish_menus(bot: Bot) -> None:
    """setMyCommands per scope and language, and the descriptions per language.

    A refusal is logged, not raised: a menu that failed to update must not keep the bot down.
    """
    for lang in SUPPORTED_LANGUAGES:
        code = telegram_code(lang) or None
        tr = translator(lang)
        try:
            for scope in MENUS:
                await bot.set_my_commands(
                    commands(scope, lang), scope=_SCOPES[scope], language_code=code
                )
            await bot.set_my_description(tr._(DESCRIPTION), language_code=code)
            await bot.set_my_short_description(tr._(SHORT_DESCRIPTION), language_code=code)
        except TelegramError:
            log.warning("could not publish the %s menus", lang, exc_info=True)
