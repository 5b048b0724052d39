"""What passing a quiz on shows: the card an inline result posts in any chat, and the card a
group gets when the bot is added to it straight into a quiz."""

from __future__ import annotations

import html

from telegram import (
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
)
from telegram.constants import ParseMode

from bot.core.models import Quiz
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg import private_render as render
from bot.tg.quiz_links import QuizLinks
from bot.tg.screen_render import Screen, button, level_name, quiz_title


def summary(tr: Translator, quiz: Quiz) -> str:
    """ "beginner · 8 questions": an inline result's second line."""
    count = tr.ngettext("{n} question", "{n} questions", len(quiz))
    return f"{level_name(tr, quiz.level)} · {count}"


def inline_result(
    tr: Translator, quiz: Quiz, lang: str, links: QuizLinks
) -> InlineQueryResultArticle:
    """One quiz in the inline list; picked, it posts the quiz's card with its two deep links."""
    card = render.quiz_card(tr, quiz, lang).text
    keyboard = InlineKeyboardMarkup([[links.take(tr, quiz.id)], [links.play_in_group(tr, quiz.id)]])
    return InlineQueryResultArticle(
        id=quiz.id,  # at most 32 characters of [A-Za-z0-9_-]: within Telegram's 64 bytes
        title=quiz.title.get(lang),
        description=summary(tr, quiz),
        input_message_content=InputTextMessageContent(card, parse_mode=ParseMode.HTML),
        reply_markup=keyboard,
    )


def group_card(
    tr: Translator, quiz: Quiz, typed: str, chat_id: int, lang: str, guessed: str | None
) -> Screen:
    """The quiz a startgroup link named, for the group's admins: ▶️ Push now and 🗓 Schedule,
    bound to this group (and checked again for an admin on the tap)."""
    text = render.quiz_card(tr, quiz, lang).text
    if guessed is not None:
        heading = tr._("I don't know the quiz {name}. The closest one I have:", name=guessed)
        text = html.escape(heading) + "\n\n" + text
    keyboard = InlineKeyboardMarkup(
        [
            [
                button("▶️ " + tr._("Push now"), cb.Setting(chat_id, "push", typed)),
                button("🗓 " + tr._("Schedule"), cb.Setting(chat_id, "sched", typed)),
            ]
        ]
    )
    return Screen(text, keyboard)


def member_note(tr: Translator, quiz: Quiz | None, lang: str) -> str:
    """A member who is no admin sent the link's /start: who can start it (the title in the
    language the note is read in: the group's, or the member's when answered privately)."""
    if quiz is None:
        return tr._("Only the group's admins can start a quiz here.")
    title = html.escape(quiz_title(quiz, lang))
    return tr._("A group admin can start {title} here for everyone.", title=title)
