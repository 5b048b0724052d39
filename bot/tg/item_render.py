"""Item analysis in /groupstats: the questions to check first, each flag with the figure that
raised it, and under each question its discrimination and wrong answers (or, with fewer than 20
answerers, that its figures are not reliable yet). The rules are bot/core/item_analysis.py's.
"""

from __future__ import annotations

import html

from babel.lists import format_list

from bot.core.item_analysis import MIN_ANSWERERS, Flag, ItemAnalysis
from bot.core.markup import plain
from bot.core.models import Question
from bot.i18n import Translator
from bot.tg.render import truncate
from bot.usecases.item_reports import AnalysedItem, QuizItems

OPTION_CHARS = 30


def flagged_items(tr: Translator, quizzes: list[QuizItems], lang: str) -> list[str]:
    """A heading then one block per flagged question (mis-keyed first), or nothing."""
    blocks = []
    for quiz in quizzes:
        for item in quiz.flagged:
            prompt = html.escape(truncate(plain(item.question.prompt.get(lang)), 60))
            title = html.escape(truncate(quiz.quiz.title.get(lang), 40))
            lines = [f"<b>{title}</b> · {tr.number(item.position + 1)}. {prompt}"]
            lines += [f"   {reason}" for reason in flag_reasons(tr, item, lang)]
            blocks.append("\n".join(lines))
    if not blocks:
        return []
    heading = tr._("⚠️ Questions to check first (item analysis)")
    return [f"\n<b>{heading}</b>", *blocks]


def flag_reasons(tr: Translator, item: AnalysedItem, lang: str) -> list[str]:
    """Each flag of an item as a sentence that says why, with its figure."""
    a, reasons = item.analysis, []
    for flag, option_id in a.flags:
        if flag is Flag.NEGATIVE:
            reasons.append(
                tr._(
                    "probably mis-keyed: members who do well on the rest of the quiz get it "
                    "wrong more often than the others (discrimination {r})",
                    r=_figure(tr, a.point_biserial),
                )
            )
        elif flag is Flag.DISTRACTOR_BEATS_KEY:
            d = next(d for d in a.distractors if d.option_id == option_id)
            reasons.append(
                tr._(
                    "probably mis-keyed: the strongest members choose {option} ({share}) more "
                    "than the key ({key})",
                    option=_option(tr, item.question, option_id, lang),
                    share=tr.percent(d.upper_share),
                    key=tr.percent(a.key_upper_share or 0.0),
                )
            )
        elif flag is Flag.TOO_EASY:
            reasons.append(
                tr._(
                    "too easy: {percent} right, so it tells nobody apart",
                    percent=tr.percent(a.difficulty),
                )
            )
    unused = [
        _option(tr, item.question, o, lang) for f, o in a.flags if f is Flag.UNUSED_DISTRACTOR
    ]
    if unused:
        reasons.append(
            tr.ngettext(
                "nobody picks {options}: a wrong answer that distracts nobody",
                "nobody picks {options}: {n} wrong answers that distract nobody",
                len(unused),
                options=format_list(unused, locale=tr.locale),
            )
        )
    return reasons


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
            r=_figure(tr, a.point_biserial),
            d=_figure(tr, a.upper_lower),
        )
    ]
    wrong = [  # the ones nobody picks are among the flags
        tr._(
            "{option} {share} ({upper} of the strongest)",
            option=_option(tr, question, d.option_id, lang),
            share=tr.percent(d.share),
            upper=tr.percent(d.upper_share),
        )
        for d in a.distractors
        if d.chosen
    ]
    if wrong:
        lines.append(tr._("   wrong answers: {list}", list=" · ".join(wrong)))
    return lines


def _figure(tr: Translator, value: float | None) -> str:
    """A correlation or an index to two decimals; a dash when it cannot be computed (everyone
    scored the same)."""
    return "–" if value is None else tr.number(round(value, 2))


def _option(tr: Translator, question: Question, option_id: str, lang: str) -> str:
    """An option's text, short, in the reader's quotation marks."""
    text = next((o.text.get(lang) for o in question.options if o.id == option_id), option_id)
    return tr._("“{option}”", option=html.escape(truncate(plain(text), OPTION_CHARS)))
