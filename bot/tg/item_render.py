"""Item analysis in /groupstats: the questions to check first, each flag with the figure that
raised it, and under each question its discrimination and wrong answers (or, with fewer than 20
answerers, that its figures are not reliable yet). The rules are bot/core/item_analysis.py's.
"""

from __future__ import annotations

import html

from bot.core.bidi import isolate_if_needed
from bot.core.item_analysis import MIN_ANSWERERS, ItemAnalysis
from bot.core.markup import plain
from bot.core.models import Question
from bot.i18n import Translator
from bot.item_words import figure, flag_reasons, option_text
from bot.tg.screen_render import truncate
from bot.usecases.item_reports import QuizItems


def flagged_items(tr: Translator, quizzes: list[QuizItems], lang: str) -> list[str]:
    """A heading then one block per flagged question (mis-keyed first), or nothing."""
    blocks = []
    for quiz in quizzes:
        for item in quiz.flagged:
            prompt = html.escape(truncate(plain(item.question.prompt.get(lang)), 60))
            title = html.escape(isolate_if_needed(truncate(quiz.quiz.title.get(lang), 40)))
            lines = [f"<b>{title}</b> · {tr.number(item.position + 1)}. {prompt}"]
            lines += [f"   {reason}" for reason in flag_reasons(tr, item, lang)]
            blocks.append("\n".join(lines))
    if not blocks:
        return []
    heading = tr._("⚠️ Questions to check first (item analysis)")
    return [f"\n<b>{heading}</b>", *blocks]


def item_lines(tr: Translator, a: ItemAnalysis, question: Question, lang: str) -> list[str]:
    """Under a question: its discrimination and wrong answers, or why there are none yet."""
    if not a.reliable:
        return [
            tr.ngettext(
                "   item analysis: {n} answerer so far, figures not reliable before {min}",
                "   item analysis: {n} answerers so far, figures not reliable before {min}",
                a.answerers,
                min=tr.number(MIN_ANSWERERS),
            )
        ]
    lines = [
        tr._(
            "   discrimination {r} · upper–lower {d}",
            r=figure(tr, a.point_biserial),
            d=figure(tr, a.upper_lower),
        )
    ]
    wrong = [  # the ones nobody picks are among the flags
        tr._(
            "{option} {share} ({upper} of the strongest)",
            option=option_text(tr, question, d.option_id, lang),
            share=tr.percent(d.share),
            upper=tr.percent(d.upper_share),
        )
        for d in a.distractors
        if d.chosen
    ]
    if wrong:
        lines.append(tr._("   wrong answers: {list}", list=" · ".join(wrong)))
    return lines
