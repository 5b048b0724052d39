"""The group page's item analysis: per quiz a table of its questions' figures (the flagged ones
first), then each question with its flags as sentences that say why and, with enough
answerers, a chart of how often each wrong option was chosen, overall (bars) and among the
strongest 27 % (the line).
The figures are bot/core/item_analysis.py's; under 20 answerers the row says they are not
reliable yet instead of showing them."""

from __future__ import annotations

from bot.core.item_analysis import MIN_ANSWERERS
from bot.core.markup import plain
from bot.i18n import Translator
from bot.item_words import figure, flag_reasons
from bot.usecases.item_reports import AnalysedItem, QuizItems
from bot.web import charts
from bot.web.html_parts import empty, esc, heading, para, rich, table, tip

LETTERS = charts.LETTERS


def render(tr: Translator, quizzes: list[QuizItems]) -> str:
    if not quizzes:
        return empty(tr._("No answers in this group yet. /push to start a quiz."))
    lang = tr.lang
    parts = [
        para(
            tr._(
                "Over each member's first run of a quiz. Discrimination: how much more often "
                "those who do well on the rest of the quiz get the question right (below 0: "
                "probably mis-keyed)."
            )
        )
    ]
    head = ["#", tr._("Answerers"), tr._("Right"), tr._("Discrimination"), tr._("Upper–lower")]
    for quiz in quizzes:
        flagged = {id(i) for i in quiz.flagged}
        ordered = [*quiz.flagged, *(i for i in quiz.items if id(i) not in flagged)]
        parts.append(heading(quiz.quiz.title.get(lang), 3))
        # Numbers only in the table, so it fits a phone; each question's text, reasons and
        # chart follow it, the flagged ones first.
        parts.append(table(head, [_row(tr, item) for item in ordered], key=f"items-{quiz.quiz.id}"))
        parts += [_question(tr, item, lang) for item in ordered]
    return "".join(parts)


def _row(tr: Translator, item: AnalysedItem) -> list[str]:
    a = item.analysis
    number = esc(tr.number(item.position + 1))
    if not a.reliable:  # the figures would be noise
        return [number, esc(tr.number(a.answerers)), "–", "–", "–"]
    return [
        number,
        esc(tr.number(a.answerers)),
        esc(tr.percent(a.difficulty)),
        esc(figure(tr, a.point_biserial)),
        esc(figure(tr, a.upper_lower)),
    ]


def _question(tr: Translator, item: AnalysedItem, lang: str) -> str:
    a, q = item.analysis, item.question
    prompt = f"<b>{esc(tr.number(item.position + 1))}.</b> {rich(plain(q.prompt.get(lang)))}"
    if not a.reliable:
        note = tr._("not reliable before {min} answerers", min=tr.number(MIN_ANSWERERS))
        body = para(note)
    else:
        reasons = "".join(f"<li>{r}</li>" for r in flag_reasons(tr, item, lang))  # escaped
        body = f'<ul class="flags">{reasons}</ul>' if reasons else ""
        body += _chart(tr, item) if _charted(item) else ""
    return (
        f'<article class="item" data-item="{esc(q.id)}" data-flagged="{int(bool(a.flags))}">'
        f"<p>{prompt}</p>{body}</article>"
    )


def _charted(item: AnalysedItem) -> bool:
    return item.analysis.reliable and bool(item.analysis.distractors)


def _chart(tr: Translator, item: AnalysedItem) -> str:
    a, q = item.analysis, item.question
    letter = {o.id: LETTERS[k] for k, o in enumerate(q.options)}
    labels = [letter.get(d.option_id, d.option_id) for d in a.distractors]
    title = tr._(
        "Question {n}: wrong answers chosen, in %, by everyone (bars) and by the strongest (line)",
        n=tr.number(item.position + 1),
    )
    return charts.bars(
        [round(100 * d.share) for d in a.distractors],
        labels,
        title,
        series=tr._("Everyone"),
        count=lambda value: tr.percent(value / 100),
        tip=tip(tr),
        ratios=[d.upper_share for d in a.distractors],
        line=tr._("The strongest members"),
        share=tr.percent,
        every=1,
        peak=100,  # bars in % against the line's 0..1 over the same height: one scale
        right_axis=False,
        caption=title,
    )
