"""What the learner sees in a private chat around the quizzes: the language picker, the
welcome, the quiz list and a quiz's card, the offer to resume, help, and short replies.

The question itself is question_render.py, the score result_render.py; the shared pieces
(`Screen`, `rich`, buttons) are screen_render.py.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass

from telegram import InlineKeyboardMarkup

from bot.core.engine import Attempt
from bot.core.models import Catalog, Quiz
from bot.core.zones import utc_offset
from bot.i18n import SUPPORTED_LANGUAGES, UNREVIEWED_UI, Translator, translator
from bot.tg import callbacks as cb
from bot.tg.long_lists import bounded
from bot.tg.menus import PRIVATE
from bot.tg.quiz_links import QuizLinks
from bot.tg.screen_render import (
    MAX_LIST_BUTTONS,
    Screen,
    button,
    guide_lines,
    guide_link,
    level_name,
    more_quizzes,
    quiz_title,
    rich,
    shown_name,
    typed_back,
)


def language_picker(tr: Translator, preselected: str | None) -> Screen:
    """Each language named in itself, always in the same order (a learner finds theirs where it
    was last time); the current one, or Telegram's on first contact, is ticked."""
    order = SUPPORTED_LANGUAGES
    rows = [
        [button(("✓ " if code == preselected else "") + tr.language_name(code), cb.Lang(code))]
        for code in order
    ]
    # The prompt is shown in every supported language (from each one's catalogue): the learner
    # has not chosen one yet.
    text = "🌍 " + " · ".join(translator(code)._("Choose your language") for code in order)
    return Screen(text, InlineKeyboardMarkup(rows))


def welcome(tr: Translator, first_name: str) -> str:
    text = tr._(
        "👋 Welcome, {name}! Pick a quiz below: one question at a time, with the answer "
        "explained after each one.",
        name=shown_name(first_name),
    )
    if tr.lang not in UNREVIEWED_UI:
        return text
    notice = tr._(
        "This interface has not yet been reviewed by a native speaker of your language; "
        "some wording may read oddly."
    )
    return f"{text}\n\n<i>{html.escape(notice)}</i>"


@dataclass(frozen=True, slots=True)
class ListMarks:
    """Where the learner stands on each quiz: best score of the finished ones, the running one."""

    best: Mapping[str, tuple[int, int]]  # quiz id -> (best correct, questions)
    running: str | None = None


def _status(tr: Translator, quiz: Quiz, marks: ListMarks) -> tuple[str, str]:
    """The status words after a quiz in the list, and the emoji before its button."""
    if quiz.id == marks.running:
        return tr._("⏳ in progress"), "⏳ "
    if quiz.id in marks.best:
        best, total = marks.best[quiz.id]
        done = tr._("✅ best {best}/{total}", best=tr.number(best), total=tr.number(total))
        return done, "✅ "
    return tr._("🆕 new"), ""


def quiz_list(
    tr: Translator, catalog: Catalog, lang: str, intro: str = "", marks: ListMarks | None = None
) -> Screen:
    """Quizzes by guide, each marked new, in progress, or done with the best score."""
    lines = [intro, ""] if intro else []
    heading = tr._("📚 Quizzes")
    lines.append(f"<b>{heading}</b>")
    rows = []
    items = []  # one per quiz, the first of a guide under the guide's line
    for guide, quizzes in catalog.by_guide():
        under_guide = ["", f"📖 {guide_link(guide, lang)}"]
        for quiz in quizzes:
            count = tr.ngettext("{n} question", "{n} questions", len(quiz))
            title = quiz.title.get(lang)
            line = (
                f"• {html.escape(quiz_title(quiz, lang))} · {level_name(tr, quiz.level)} · {count}"
            )
            prefix = ""
            if marks is not None:
                status, prefix = _status(tr, quiz, marks)
                line = f"{line} · {status}"
            items.append("\n".join([*under_guide, line]))
            under_guide = []
            rows.append([button(prefix + title, cb.ShowQuiz(quiz.id))])
    if not rows:
        lines.append(tr._("No quizzes are available yet."))
    text = bounded(lines, items, lambda n: "\n" + more_quizzes(tr, n))
    keyboard = InlineKeyboardMarkup(rows[:MAX_LIST_BUTTONS]) if rows else None
    return Screen(text, keyboard)


def quiz_card(tr: Translator, quiz: Quiz, lang: str, links: QuizLinks | None = None) -> Screen:
    """A quiz's intro; with `links`, also the buttons that pass it on (a group, 📤 Share)."""
    count = tr.ngettext("{n} question", "{n} questions", len(quiz))
    text = "\n".join(
        [
            f"<b>{html.escape(quiz_title(quiz, lang))}</b>",
            f"{level_name(tr, quiz.level)} · {count}",
            "",
            rich(quiz.description.get(lang)),
            *guide_lines(tr, quiz.guide, lang),
            *unreviewed_notice(tr, quiz, lang),
        ]
    )
    rows = [[button(tr._("▶️ Start"), cb.StartQuiz(quiz.id))]]
    if links is not None:
        rows.append([links.play_in_group(tr, quiz.id), *links.share(tr, quiz.id)])
    rows.append([button(tr._("⬅️ All quizzes"), cb.BackToList())])
    return Screen(text, InlineKeyboardMarkup(rows))


def unreviewed_notice(tr: Translator, quiz: Quiz, lang: str) -> list[str]:
    """In a quiz's intro, when its translation in `lang` awaits a native speaker's review (the
    content's `reviewed: false`): say so, and ask for reports."""
    if lang not in quiz.unreviewed:
        return []
    notice = tr._(
        "This translation has not yet been reviewed by a native speaker; use ⚠️ Report if "
        "something reads wrong."
    )
    return ["", f"<i>{html.escape(notice)}</i>"]


def resume_offer(tr: Translator, quiz: Quiz, attempt: Attempt, lang: str) -> Screen:
    text = tr._(
        "You have a quiz in progress: <b>{title}</b>, question {k} of {n}.",
        title=html.escape(quiz_title(quiz, lang)),
        k=tr.number(attempt.current + 1),
        n=tr.number(len(quiz)),
    )
    keyboard = InlineKeyboardMarkup(
        [
            [button(tr._("▶️ Continue"), cb.Continue(attempt.id))],
            [button(tr._("✖️ Abandon it"), cb.Abandon(attempt.id))],
        ]
    )
    return Screen(text, keyboard)


def start_choice(
    tr: Translator, running: Quiz, attempt: Attempt, wanted: Quiz, lang: str
) -> Screen:
    """Starting a quiz while one is in progress: continue it, or start (over) the one asked."""
    text = tr._(
        "You have a quiz in progress: <b>{title}</b>, question {k} of {n}.",
        title=html.escape(quiz_title(running, lang)),
        k=tr.number(attempt.current + 1),
        n=tr.number(len(running)),
    )
    if running.id == wanted.id:
        fresh = tr._("🔄 Start over")
    else:
        fresh = tr._("🆕 Start {title}", title=wanted.title.get(lang))
    keyboard = InlineKeyboardMarkup(
        [
            [button(tr._("▶️ Continue"), cb.Continue(attempt.id))],
            [button(fresh, cb.StartOver(wanted.id))],
        ]
    )
    return Screen(text, keyboard)


def in_exam(tr: Translator) -> str:
    """A private quiz started or tapped during an exam (also a popup: under 200 characters)."""
    return tr._(
        "⏱ You are in an exam: your quizzes wait until it ends, so that none gives its answers "
        "away. /stop ends the exam."
    )


def waiting_quiz(tr: Translator, quiz: Quiz, lang: str) -> str:
    """After a language change mid-quiz: where the quiz went."""
    return tr._(
        "Your quiz {title} is waiting: /start to continue it.",
        title=html.escape(quiz_title(quiz, lang)),
    )


def help_text(tr: Translator) -> str:
    """The private help, listing the same commands (and descriptions) as the command menu."""
    heading = tr._("How quizbot works")
    lines = [
        f"<b>{heading}</b>",
        tr._(
            "Pick a quiz, answer each question with the buttons (or, when it asks for a "
            "number, by typing it), read the explanation, then go on. Your answers are saved "
            "as you go."
        ),
        "",
    ]
    for command in PRIVATE:
        description = tr._(command.description)
        lines.append(
            html.escape(
                tr._("/{command}: {description}", command=command.name, description=description),
                quote=False,
            )
        )
    return "\n".join(lines)


def unknown_link(tr: Translator, typed: str, guess: str | None) -> str:
    """Above the quiz list, for a link naming no quiz: the title of the closest one, if any."""
    if guess is not None:
        return tr._(
            "I don't know the quiz {name}. Did you mean {title}? Here are the ones I have:",
            name=html.escape(typed_back(typed)),
            title=html.escape(guess),
        )
    return tr._("I don't know that quiz. Here are the ones I have:")


def zone_label(zone: str) -> str:
    """A zone as a suggestion names it: 'Etc/GMT-1 (UTC+01:00)' for a fixed offset, whose
    name reads the other way round (POSIX signs), else its name."""
    offset = utc_offset(zone)
    return zone if offset is None else f"{zone} ({offset})"


def unknown_zone(tr: Translator, name: str, suggestion: str | None) -> str:
    """An unknown time zone, with the closest real one when there is one."""
    if suggestion is not None:
        return tr._(
            "Unknown time zone: {zone}. Did you mean {suggestion}?",
            zone=html.escape(typed_back(name)),
            suggestion=html.escape(zone_label(suggestion)),
        )
    return tr._(
        "Unknown time zone: {zone}. Use Area/City, for example /timezone Africa/Dakar.",
        zone=html.escape(typed_back(name)),
    )


def after_stop(tr: Translator, text: str, quiz_waiting: bool) -> str:
    """A /stop reply for a round or an exam: a quiz still running is left alone, and the learner
    learns how to end it too (they may have meant it)."""
    if not quiz_waiting:
        return text
    quiz = tr._("Your quiz is still running: /start to go on with it, /stop again to abandon it.")
    return f"{text}\n\n{quiz}"
