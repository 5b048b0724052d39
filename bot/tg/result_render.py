"""The end of a private quiz: the score, the questions missed, and the review of those
mistakes with the learner's answer, the right one and why.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Mapping, Sequence

from telegram import InlineKeyboardMarkup

from bot.core.engine import Attempt, Score
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.markup import plain
from bot.core.models import Question, Quiz
from bot.i18n import Translator
from bot.number_words import key_text
from bot.tg import callbacks as cb
from bot.tg.long_lists import bounded
from bot.tg.quiz_links import QuizLinks
from bot.tg.screen_render import (
    LETTERS,
    Screen,
    button,
    guide_lines,
    more_questions,
    quiz_title,
    rich,
    truncate,
)


def result(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    final: Score,
    lang: str,
    links: QuizLinks | None = None,
) -> Screen:
    heading = tr._("🏁 Quiz finished: {title}", title=html.escape(quiz_title(quiz, lang)))
    lines = [f"<b>{heading}</b>", ""]
    if final.total:  # flashcards are not scored: a quiz of flashcards only has no score
        lines.append(
            tr._(
                "Score: {correct}/{total} ({percent})",
                correct=tr.number(final.correct),
                total=tr.number(final.total),
                percent=tr.percent(final.ratio),
            )
        )
    if final.flashcards:
        lines.append(
            tr.ngettext(
                "🃏 {n} flashcard reviewed (not scored).",
                "🃏 {n} flashcards reviewed (not scored).",
                final.flashcards,
            )
        )
    missed = []
    if final.missed:
        lines += [
            "",
            tr.ngettext("You missed {n} question:", "You missed {n} questions:", len(final.missed)),
        ]
        for index in final.missed:
            prompt = plain(quiz.questions[index].prompt.get(lang))
            missed.append(f"• {tr.number(index + 1)}. {html.escape(truncate(prompt, 120))}")
    elif final.total:
        lines += ["", tr._("🎉 A perfect score!")]
    guide = guide_lines(tr, quiz.guide, lang)
    rows = [[button(tr._("🔁 Retake"), cb.StartQuiz(quiz.id))]]
    if final.missed:
        rows.append([button(tr._("🔎 Review my mistakes"), cb.Review(attempt.id))])
    if links is not None and links.share(tr, quiz.id):
        rows.append(links.share(tr, quiz.id))
    rows.append([button(tr._("📚 Other quizzes"), cb.QuizList())])
    text = bounded(lines, missed, lambda n: more_questions(tr, n), guide)
    return Screen(text, InlineKeyboardMarkup(rows))


def review(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    missed: Sequence[int],
    lang: str,
    typed: Mapping[int, str] | None = None,
) -> Screen:
    """Every missed question with the learner's answer, the right one and why (`typed`: what
    was typed for number questions, by question index)."""
    heading = tr._("🔎 Your mistakes in {title}", title=html.escape(quiz_title(quiz, lang)))
    blocks = []
    for index in missed:
        q = quiz.questions[index]
        chosen = attempt.answers[index]
        lines = ["", f"<b>{tr.number(index + 1)}.</b> {rich(q.prompt.get(lang))}"]
        if q.typed:
            if typed and index in typed:
                lines.append(tr._("Your answer: {answer}", answer=html.escape(typed[index])))
            right = html.escape(key_text(tr, q, lang))
            lines.append(tr._("Right answer: {answer}", answer=right))
        else:
            order = attempt.orders[index]
            picked = attempt.selected_indexes(q, index)  # a select-all question's set
            if picked is not None:
                mine = _lettered(q, order, picked, lang)
                lines.append(tr._("Your answer: {answer}", answer=mine))
            elif chosen is not None:
                mine = _lettered(q, order, {chosen}, lang)
                lines.append(tr._("Your answer: {answer}", answer=mine))
            right = _lettered(q, order, q.key, lang)
            lines.append(tr._("Right answer: {answer}", answer=right))
        lines.append(f"<i>{rich(q.explanation.get(lang))}</i>")
        blocks.append(lines)
    head, tail = (
        [f"<b>{heading}</b>"],
        guide_lines(tr, quiz.guide, lang),
    )
    text = "\n".join([*head, *(line for block in blocks for line in block), *tail])
    if len(text) > MESSAGE_MAX_CHARS:
        # Never cut through an HTML tag: the list without explanations, as much as fits.
        text = bounded(
            head,
            ["\n".join(line for line in block if not line.startswith("<i>")) for block in blocks],
            lambda n: "\n" + more_questions(tr, n),
            tail,
        )
    rows = [
        [button(tr._("🔁 Retake"), cb.StartQuiz(quiz.id))],
        [button(tr._("📚 Other quizzes"), cb.QuizList())],
    ]
    return Screen(text, InlineKeyboardMarkup(rows))


def _lettered(question: Question, order: Sequence[int], options: Collection[int], lang: str) -> str:
    """Options with the letters they had on the learner's screen, in that order, joined: one
    option, or a select-all set ("B. … · D. …")."""
    return " · ".join(
        f"{LETTERS[pos]}. {rich(question.options[option].text.get(lang))}"
        for pos, option in enumerate(order)
        if option in options
    )
