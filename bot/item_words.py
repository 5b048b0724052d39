"""Item analysis in words, in the reader's language: each flag as a sentence that says which
figure raised it, the figures to two decimals, an option's short text in quotation marks (HTML
escaped). Shared by /groupstats (bot/tg) and the dashboard's group page (bot/web)."""

from __future__ import annotations

import html

from babel.lists import format_list

from bot.core.item_analysis import Flag
from bot.core.markup import plain
from bot.core.models import Question
from bot.i18n import Translator
from bot.usecases.item_reports import AnalysedItem

OPTION_CHARS = 30


def flag_reasons(tr: Translator, item: AnalysedItem, lang: str) -> list[str]:
    """Each flag of an item as a sentence that says why, with its figure."""
    a, reasons = item.analysis, []
    for flag, option_id in a.flags:
        if flag is Flag.NEGATIVE:
            reasons.append(
                tr._(
                    "probably mis-keyed: members who do well on the rest of the quiz get it "
                    "wrong more often than the others (discrimination {r})",
                    r=figure(tr, a.point_biserial),
                )
            )
        elif flag is Flag.DISTRACTOR_BEATS_KEY:
            d = next(d for d in a.distractors if d.option_id == option_id)
            reasons.append(
                tr._(
                    "probably mis-keyed: the strongest members choose {option} ({share}) more "
                    "than the key ({key})",
                    option=option_text(tr, item.question, option_id, lang),
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
        option_text(tr, item.question, o, lang) for f, o in a.flags if f is Flag.UNUSED_DISTRACTOR
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


def figure(tr: Translator, value: float | None) -> str:
    """A correlation or an index to two decimals; a dash when it cannot be computed (everyone
    scored the same)."""
    return "–" if value is None else tr.number(round(value, 2))


def option_text(tr: Translator, question: Question, option_id: str, lang: str) -> str:
    """An option's text, short, in the reader's quotation marks."""
    text = next((o.text.get(lang) for o in question.options if o.id == option_id), option_id)
    return tr._("“{option}”", option=html.escape(_short(plain(text))))


def _short(text: str) -> str:
    return text if len(text) <= OPTION_CHARS else text[: OPTION_CHARS - 1].rstrip() + "…"
