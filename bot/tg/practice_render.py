"""What /practice looks like: the chooser (guides, level, length), questions, verdicts, the score.

The chooser keeps its whole state in its buttons' data (a bit mask of guides, a level letter and
a length), so it needs no server-side session and any tap re-renders it in place.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence

from telegram import InlineKeyboardMarkup

from bot.core.engine import Judgement
from bot.core.models import GuidePath, Level
from bot.core.practice import LENGTHS
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.question_render import unreviewed_line
from bot.tg.screen_render import (
    LETTERS,
    Screen,
    button,
    guide_lines,
    level_name,
    quiz_title,
    rich,
)
from bot.tg.wire.html_fit import fit_html
from bot.usecases.practice_outcomes import PracticeAnswered, PracticeQuestion

# Guides the chooser offers to tick, at most: their bits must fit the 18 digits its buttons give
# the mask (2**59 - 1 has 18). A catalogue with more: the rest are practised with "none ticked".
PRACTICE_GUIDES_MAX = 59

LEVEL_CODES: dict[str, Level | None] = {
    "x": None,
    "b": Level.BEGINNER,
    "i": Level.INTERMEDIATE,
    "a": Level.ADVANCED,
}


def chosen_guides(guides: Sequence[GuidePath], mask: int) -> set[str]:
    return {guide.id for i, guide in enumerate(guides) if mask >> i & 1}


def chooser(
    tr: Translator,
    guides: Sequence[GuidePath],
    mask: int,
    level: str,
    length: int,
    lang: str,
    levels: Collection[Level],
) -> Screen:
    """Guides to tick (none ticked: all of them), a level among `levels` (those with quizzes in
    the ticked guides), a length, then Start."""
    lines = [
        "<b>" + tr._("🎯 Practice") + "</b>",
        tr._(
            "Questions from every quiz that matches, none repeated until you have seen them all. "
            "Choose guides (none: all), a level and a length, then start."
        ),
    ]
    rows = []
    for i, guide in enumerate(guides):
        on = bool(mask >> i & 1)
        label = ("✓ " if on else "") + guide.title.get(lang)
        rows.append([button(label, cb.PracticeChoice(mask ^ (1 << i), level, length))])
    level_row = []
    for code, value in LEVEL_CODES.items():
        if value is not None and value not in levels:
            continue
        name = tr._("any level") if value is None else level_name(tr, value)
        label = ("✓ " if code == level else "") + name
        level_row.append(button(label, cb.PracticeChoice(mask, code, length)))
    rows.append(level_row)
    rows.append(
        [
            button(
                ("✓ " if n == length else "") + tr.ngettext("{n} question", "{n} questions", n),
                cb.PracticeChoice(mask, level, n),
            )
            for n in LENGTHS
        ]
    )
    rows.append([button(tr._("▶️ Start"), cb.PracticeGo(mask, level, length))])
    return Screen("\n".join(lines), InlineKeyboardMarkup(rows))


def question(tr: Translator, asked: PracticeQuestion, lang: str) -> Screen:
    k, n = tr.number(asked.index + 1), tr.number(asked.total)
    if asked.exam is not None:
        counter = tr._("Exam {k}/{n}", k=k, n=n)
    else:
        counter = tr._("Practice {k}/{n}", k=k, n=n)
    options = [
        f"<b>{LETTERS[pos]}.</b> {rich(asked.question.options[option].text.get(lang))}"
        for pos, option in enumerate(asked.order)
    ]
    text = "\n".join(
        [
            f"<b>{counter}</b> · {html.escape(quiz_title(asked.quiz, lang))}"
            + unreviewed_line(tr, asked.quiz, lang),
            "",
            rich(asked.question.prompt.get(lang)),
            "",
            *options,
        ]
    )
    buttons = [
        button(LETTERS[pos], cb.PracticeAnswer(asked.set_id, asked.index, pos))
        for pos in range(len(asked.order))
    ]
    return Screen(fit_html(text), InlineKeyboardMarkup([buttons]))


def verdict(tr: Translator, judgement: Judgement) -> str:
    if judgement.is_correct:
        return tr._("✅ Right!")
    return tr._("❌ Not quite: the answer is {letter}.", letter=LETTERS[judgement.correct_position])


def explanation(tr: Translator, answered: PracticeAnswered, lang: str) -> str:
    asked = answered.asked
    head = verdict(tr, answered.judgement) if answered.judgement else ""
    return "\n".join(
        [
            f"<b>{head}</b>",
            "",
            rich(asked.question.explanation.get(lang)),
            *guide_lines(tr, asked.quiz.guide, lang),
        ]
    )


def result(tr: Translator, answered: PracticeAnswered) -> Screen:
    total = answered.asked.total
    lines = [
        "<b>"
        + tr._(
            "🏁 Practice done: {correct}/{total}",
            correct=tr.number(answered.correct),
            total=tr.number(total),
        )
        + "</b>"
    ]
    if answered.missed:
        lines.append(
            tr.ngettext(
                "{n} missed question joins your review queue: /review.",
                "{n} missed questions join your review queue: /review.",
                answered.missed,
            )
        )
    lines.append(tr._("/practice for another set."))
    rows = [
        [button(tr._("🔁 Another set"), cb.PracticeMore())],
        [button(tr._("📚 Other quizzes"), cb.QuizList())],
    ]
    return Screen("\n".join(lines), InlineKeyboardMarkup(rows))


def nothing_matches(tr: Translator) -> str:
    return tr._("No quiz matches that choice. Try another level or more guides: /practice")


def closed(tr: Translator) -> str:
    return tr._("This question was already answered.")
