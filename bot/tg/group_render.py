"""A study group's menus: the hello when the bot joins (with every command), the quiz picker,
an unknown quiz, and the settings screen with its buttons.

Messages posted in the group use the group's language. Every content string is escaped.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping

from telegram import InlineKeyboardMarkup

from bot.core.bidi import isolate_if_needed
from bot.core.models import Catalog, Quiz
from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.store import GroupSettings
from bot.tg import callbacks as cb
from bot.tg import menus, standings_render
from bot.tg.long_lists import bounded
from bot.tg.screen_render import MAX_LIST_BUTTONS, Screen, button, more_quizzes, typed_back


def how_to(tr: Translator) -> str:
    """Posted when the bot joins a group (plain text: escaped as a whole)."""
    return html.escape(
        "\n".join(
            [
                tr._("👋 Hello! I run short quizzes for this group."),
                tr._(
                    "Admins: /quiz to pick a quiz, /push <quiz> to start one, /stop to end it, "
                    "/settings for language and timing, /schedule to run quizzes automatically."
                ),
                tr._(
                    "Everyone: tap a letter to answer; when a question asks for every right "
                    "option, tick them and tap 📨 Submit. Only your first answer counts; the "
                    "answer is revealed when time is up."
                ),
                *command_lists(tr),
            ]
        ),
        quote=False,
    )


def command_lists(tr: Translator) -> list[str]:
    """Every command by where it works, read from the menus (so /help cannot leave one out)."""
    everyone = [c.name for c in menus.GROUP]
    admins = [c.name for c in menus.GROUP_ADMIN if c.name not in everyone]
    private = [c.name for c in menus.PRIVATE if c.name in menus.PRIVATE_ONLY]

    def listed(names: list[str]) -> str:
        return " ".join("/" + name for name in names)

    return [
        tr._(
            "Commands here: {everyone} for everyone; {admins} for admins. Type / for the menu, "
            "with what each does.",
            everyone=listed(everyone),
            admins=listed(admins),
        ),
        tr._("In a private chat with me: {commands}.", commands=listed(private)),
    ]


def quiz_picker(
    tr: Translator,
    catalog: Catalog,
    chat_id: int,
    lang: str,
    own: Mapping[str, Quiz] | None = None,
) -> Screen:
    """A button per quiz (the group's own uploaded ones first), and each title with the id
    `/push` and `/schedule` take."""
    listed = [(typed, quiz) for typed, quiz in (own or {}).items()]
    listed += [(quiz.id, quiz) for quiz in catalog]
    if not listed:
        return Screen(tr._("No quizzes are available yet."))
    titles = Counter(quiz.title.get(lang) for _, quiz in listed)
    rows = [
        [
            button(
                _picker_label(quiz.title.get(lang), typed, titles),
                cb.Setting(chat_id, "push", typed),
            )
        ]
        for typed, quiz in listed[:MAX_LIST_BUTTONS]
    ]
    text = bounded(
        [tr._("Which quiz should the group play?"), ""],
        [listed_line(tr, quiz.title.get(lang), typed) for typed, quiz in listed],
        lambda n: more_quizzes(tr, n),
        ["", html.escape(tr._("Or type /push <id>."), quote=False)],
    )
    return Screen(text, InlineKeyboardMarkup(rows))


def listed_line(tr: Translator, title: str, quiz_id: str) -> str:
    """A quiz in a list, with the id /push and /schedule take: "• Title: `id`" (French puts a
    no-break space before the colon, hence a msgid rather than an f-string)."""
    code = f"<code>{html.escape(quiz_id)}</code>"
    # TRANSLATORS: a quiz's title, then the id an admin types after /push.
    return "• " + tr._("{title}: {id}", title=html.escape(isolate_if_needed(title)), id=code)


def _picker_label(title: str, quiz_id: str, titles: Counter[str]) -> str:
    """A picker button's label: the title, with the id where another quiz has the same title
    (an uploaded quiz beside a shipped one, or two uploads), so no two buttons read alike."""
    return title if titles[title] == 1 else f"{title} · {quiz_id}"


def unknown_quiz(tr: Translator, typed: str, suggestion: str | None) -> str:
    if suggestion:
        return tr._(
            "I don't know the quiz {name}. Did you mean /push {suggestion}? /quiz shows the list.",
            name=html.escape(typed_back(typed)),
            suggestion=html.escape(suggestion),
        )
    return tr._("I don't know that quiz. /quiz shows the list.")


def popup_line(tr: Translator, group: GroupSettings) -> str:
    if group.popup_verdict:
        return tr._("Answer popups: right or wrong at once, with the explanation")
    return tr._("Answer popups: the letter only; the verdict comes with the reveal")


def flashcards_line(tr: Translator, group: GroupSettings) -> str:
    if group.flashcards:
        return tr._("Flashcards: on (the front, then the back at the reveal; not scored)")
    return tr._("Flashcards: off (skipped; learners rate them in private)")


def typed_line(tr: Translator, group: GroupSettings) -> str:
    if group.typed_answers:
        return tr._("Typed answers: on (number questions are asked; a member's first reply counts)")
    return tr._("Typed answers: off (number questions are skipped)")


def settings(tr: Translator, group: GroupSettings) -> Screen:
    heading = tr._("⚙️ Group settings")
    lines = [
        f"<b>{heading}</b>",
        tr._("Language: {name}", name=tr.language_name(group.language)),
        tr._("Seconds per question: {n}", n=tr.number(group.seconds)),
        tr._("Shuffle options: {state}", state=tr._("on") if group.shuffle else tr._("off")),
        tr._(
            "Time zone: {zone} (change it with /timezone Area/City)",
            zone=html.escape(group.timezone),
        ),
        standings_render.scoring_line(tr, group),
        popup_line(tr, group),
        typed_line(tr, group),
        flashcards_line(tr, group),
    ]
    chat = group.chat_id
    langs = [
        button(
            ("✓ " if c == group.language else "") + tr.language_name(c), cb.Setting(chat, "lang", c)
        )
        for c in SUPPORTED_LANGUAGES
    ]
    seconds = [
        button(
            ("✓ " if s == group.seconds else "") + tr.seconds(s),
            cb.Setting(chat, "seconds", str(s)),
        )
        for s in (10, 20, 30, 60)
    ]
    shuffle = [
        button(
            ("✓ " if group.shuffle else "") + tr._("Shuffle on"), cb.Setting(chat, "shuffle", "on")
        ),
        button(
            ("✓ " if not group.shuffle else "") + tr._("Shuffle off"),
            cb.Setting(chat, "shuffle", "off"),
        ),
    ]
    popups = [
        button(
            ("✓ " if not group.popup_verdict else "") + tr._("Popup: letter only"),
            cb.Setting(chat, "popup", "letter"),
        ),
        button(
            ("✓ " if group.popup_verdict else "") + tr._("Popup: verdict"),
            cb.Setting(chat, "popup", "verdict"),
        ),
    ]
    typed = [
        button(
            ("✓ " if group.typed_answers else "") + tr._("Typed answers on"),
            cb.Setting(chat, "typed", "on"),
        ),
        button(
            ("✓ " if not group.typed_answers else "") + tr._("Typed answers off"),
            cb.Setting(chat, "typed", "off"),
        ),
    ]
    cards = [
        button(
            ("✓ " if group.flashcards else "") + tr._("Flashcards on"),
            cb.Setting(chat, "cards", "on"),
        ),
        button(
            ("✓ " if not group.flashcards else "") + tr._("Flashcards off"),
            cb.Setting(chat, "cards", "off"),
        ),
    ]
    rows = [
        langs, seconds, shuffle, *standings_render.scoring_rows(tr, group), popups, typed, cards,
    ]  # fmt: skip
    return Screen("\n".join(lines), InlineKeyboardMarkup(rows))
