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
# Questions shown over all the group's quizzes, the most useful first (`_useful`): a bank of
# hundreds made a table and a chart per question hundreds long; the CSV holds every question.
ITEMS_SHOWN = 50


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
    everything = [item for quiz in quizzes for item in quiz.items]
    kept = {id(item) for item in sorted(everything, key=_useful)[:ITEMS_SHOWN]}
    # All of them: the flagged first, then quiz order, as ever; else the most useful first.
    order = _as_listed if len(everything) <= ITEMS_SHOWN else _useful
    for quiz in quizzes:
        ordered = [item for item in sorted(quiz.items, key=order) if id(item) in kept]
        if not ordered:
            continue
        parts.append(heading(quiz.quiz.title.get(lang), 3))
        # Numbers only in the table, so it fits a phone; each question's text, reasons and
        # chart follow it, the flagged ones first.
        parts.append(table(head, [_row(tr, item) for item in ordered], key=f"items-{quiz.quiz.id}"))
        parts += [_question(tr, quiz.quiz.id, item, lang) for item in ordered]
    if (more := len(everything) - ITEMS_SHOWN) > 0:
        parts.append(para(tr.ngettext("…and {n} more question", "…and {n} more questions", more)))
    return "".join(parts)


def _as_listed(item: AnalysedItem) -> tuple[int, float, int]:
    """The flagged first (mis-keyed ones first), then quiz order."""
    a = item.analysis
    return (0 if a.miskeyed else 1 if a.flags else 2, 0.0, item.position)


def _useful(item: AnalysedItem) -> tuple[int, float, int]:
    """What an admin should look at first: the mis-keyed, the other flagged, then the hardest
    with reliable figures, then those with too few answerers yet (the most answered first)."""
    a = item.analysis
    if a.flags:
        return (0 if a.miskeyed else 1, 0.0, item.position)
    if a.reliable:
        return (2, a.difficulty, item.position)
    return (3, -a.answerers, item.position)


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


def _question(tr: Translator, quiz_id: str, item: AnalysedItem, lang: str) -> str:
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
        f'<article class="item" data-item="{esc(q.id)}" data-flagged="{int(bool(a.flags))}" '
        f'data-quiz="{esc(quiz_id)}">'
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
