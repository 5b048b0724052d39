"""A group's own quizzes in words: /quizzes' list of them, /deletequiz's usage, confirmation
and result, and the /schedule hint shown under a stored quiz."""

from __future__ import annotations

import html
from collections.abc import Mapping

from telegram import InlineKeyboardMarkup

from bot.core.models import Quiz
from bot.i18n import Translator
from bot.schedule_words import typed_keywords
from bot.tg import callbacks as cb
from bot.tg.group_render import listed_line
from bot.tg.group_schedule_render import schedule_usage
from bot.tg.screen_render import Screen, button, quiz_title, typed_back
from bot.tg.upload_render import how_to_upload
from bot.tg.wire.html_fit import fit_html


def own_quizzes(tr: Translator, own: Mapping[str, Quiz], lang: str) -> Screen:
    if not own:
        return Screen(html.escape(tr._("This group has no quizzes of its own yet.")) + "\n"
                      + html.escape(how_to_upload(tr)))  # fmt: skip
    lines = [html.escape(tr._("This group's own quizzes:"))]
    lines += [
        listed_line(tr, quiz.title.get(lang), typed)
        + " · "
        + tr.ngettext("{n} question", "{n} questions", len(quiz.questions))
        for typed, quiz in own.items()
    ]
    lines.append(html.escape(tr._("/push <id> plays one; /deletequiz <id> deletes one.")))
    return Screen(fit_html("\n".join(lines)))


def no_such_quiz(tr: Translator, typed: str, own: Mapping[str, Quiz]) -> str:
    text = tr._("This group has no quiz of its own called {id}.", id=typed_back(typed) or "?")
    if own:
        text += " " + tr._("Its quizzes: {ids}", ids=", ".join(own))
    return html.escape(text)


def deletequiz_usage(tr: Translator, own: Mapping[str, Quiz]) -> str:
    """/deletequiz with no id: how to use it, and which ids there are to name."""
    text = tr._("Usage: /deletequiz <id>, with the id of one of this group's own quizzes.")
    if own:
        text += " " + tr._("Its quizzes: {ids}", ids=", ".join(own))
    else:
        text += " " + tr._("This group has no quiz of its own yet.")
    return html.escape(text)


def confirm_delete(tr: Translator, chat_id: int, typed: str, quiz: Quiz, lang: str) -> Screen:
    text = tr._(
        "Delete the quiz “{title}” ({id}) from this group? Answers already given stay in the "
        "statistics.",
        title=quiz_title(quiz, lang),
        id=typed,
    )
    keyboard = InlineKeyboardMarkup(
        [
            [
                button("🗑 " + tr._("Delete"), cb.Setting(chat_id, "delq", typed)),
                button("✖️ " + tr._("Cancel"), cb.Setting(chat_id, "delx", typed)),
            ]
        ]
    )
    return Screen(html.escape(text), keyboard)


def deleted(tr: Translator, title: str, schedules: int = 0) -> str:
    """The deletion done, the quiz named by its title; and how many of the group's schedules
    played it (removed with it)."""
    text = tr._("The quiz “{title}” was deleted from this group.", title=title)
    if schedules:
        text += "\n" + tr.ngettext(
            "Its schedule was removed too.",
            "Its {n} schedules were removed too.",
            schedules,
        )
    return html.escape(text)


def schedule_hint(tr: Translator, typed: str) -> str:
    example = tr._("To play it every weekday at 18:00: /schedule {id} {weekdays} 18:00",
                   id=typed, **typed_keywords(tr))  # fmt: skip
    return html.escape(example) + "\n\n" + schedule_usage(tr)
