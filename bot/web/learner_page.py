"""The learner's own page: answers and accuracy per week, by guide, review queue, best scores."""

from __future__ import annotations

from datetime import tzinfo

from bot.core.markup import plain
from bot.core.review import local_day, recall
from bot.i18n import Translator
from bot.usecases.dashboard import LearnerPage
from bot.web import charts
from bot.web.html_parts import (
    day,
    empty,
    esc,
    figure,
    heading,
    para,
    rich,
    section,
    short_day,
    table,
    tile,
    tip,
    way_on,
)

PROMPT_CHARS = 90
# Questions in the review queue's table, the most overdue first (as /review serves them): a
# learner with hundreds missed had a page hundreds of rows long; the count above says how many.
QUEUE_SHOWN = 100
PREVIEW = "/?view=preview"  # the nav's own link to the quizzes' preview (bot/web/routes.py)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def render(tr: Translator, page: LearnerPage, tz: tzinfo, now: float, nav: str) -> str:
    title = tr._("📈 Your progress")
    return "".join(
        [
            heading(title),
            nav,
            _tiles(tr, page),
            _weeks(tr, page),
            _guides(tr, page),
            _queue(tr, page, tz, now),
            _scores(tr, page),
            _exams(tr, page),
        ]
    )


def _tiles(tr: Translator, page: LearnerPage) -> str:
    """Counts with labels that agree with them ("1 quiz finished"); the share of right
    answers is "–" until there is an answer."""
    total, ratio = page.overall.total, page.overall.ratio
    taken, exams = len(page.scores), len(page.exams)
    answers = tr.ngettext("answer given", "answers given", total)
    due = tr.ngettext("review due", "reviews due", page.due_now)
    finished = tr.ngettext("quiz finished", "quizzes finished", taken)
    tiles = [
        tile(answers, "answers", total, tr.number(total)),
        tile(tr._("right"), "accuracy", round(ratio, 4) if total else None, tr.percent(ratio)),
        tile(due, "due", page.due_now, tr.number(page.due_now)),
        tile(finished, "quizzes", taken, tr.number(taken)),
    ]
    if exams:
        label = tr.ngettext("exam finished", "exams finished", exams)
        tiles.append(tile(label, "exams", exams, tr.number(exams)))
    return f'<div class="tiles">{"".join(tiles)}</div>'


def _weeks(tr: Translator, page: LearnerPage) -> str:
    title = tr._("Answers per week")
    if not any(w.count for w in page.weeks):  # ten empty weeks say nothing: what to do instead
        if page.exams or page.queue:  # exams and practice sets are not counted by week
            return section(title, empty(tr._("No quiz answers yet.")), key="weeks")
        hint = tr._("No answers yet. Take a quiz in the chat: /quizzes lists them.")
        return section(title, way_on(tr, hint, PREVIEW), key="weeks")
    labels = [short_day(tr, w.start) for w in page.weeks]
    ratios = [w.ratio if w.count else None for w in page.weeks]
    body = charts.bars(
        [w.count for w in page.weeks],
        labels,
        title,
        series=tr._("Answers given"),
        count=tr.number,
        tip=tip(tr),
        ratios=ratios,
        line=tr._("Share of right answers"),
        share=tr.percent,
    )
    rows = [
        [
            esc(day(tr, w.start)),
            figure(f"week-{w.start}", w.count, tr.number(w.count)),
            esc(tr.percent(w.ratio)),
        ]
        for w in reversed(page.weeks)
        if w.count
    ]
    if rows:
        numbers = tr._("Numbers")
        head = [tr._("Week of"), tr._("Answers"), tr._("Right")]
        body += f"<details><summary>{esc(numbers)}</summary>{table(head, rows, key='weeks')}"
        body += "</details>"
    return section(title, body, key="weeks")


def _guides(tr: Translator, page: LearnerPage) -> str:
    lang = tr.lang
    items = []
    for guide, accuracy in page.by_guide:
        name = guide.title.get(lang)
        link = f'<a href="{esc(guide.url.get(lang))}">{esc(name)}</a>'
        count = tr.ngettext("{n} answer", "{n} answers", accuracy.total)
        share = figure(f"guide-{guide.id}", round(accuracy.ratio, 4), tr.percent(accuracy.ratio))
        meter = charts.meter(accuracy.ratio, name)
        items.append(f"<li>{link} {share} <small>{esc(count)}</small>{meter}</li>")
    if items:
        body = f'<ul class="guides">{"".join(items)}</ul>'
    elif page.exams or page.queue:  # exams and practice sets: not counted by guide
        body = empty(tr._("No quiz answers yet."))
    else:
        body = way_on(tr, tr._("No answers yet. Take a quiz in the chat: /quizzes lists them."))
    return section(tr._("Accuracy by guide"), body, key="guides")


def _queue(tr: Translator, page: LearnerPage, tz: tzinfo, now: float) -> str:
    lang = tr.lang
    rows = []
    for entry in page.queue[:QUEUE_SHOWN]:
        item = entry.item
        due = tr._("now") if item.is_due(now) else day(tr, local_day(item.due_at, tz))
        box = tr._("~{percent}", percent=tr.percent(recall(item, now, tz)))  # FSRS, today
        prompt = rich(_cut(plain(entry.question.prompt.get(lang)), PROMPT_CHARS))
        quiz = esc(entry.quiz.title.get(lang))
        rows.append([f"{prompt}<br><small>{quiz}</small>", esc(box), esc(due)])
    if rows:
        head = [tr._("Question"), tr._("Recall today"), tr._("Due")]
        body = table(head, rows, key="queue")
        if (more := len(page.queue) - QUEUE_SHOWN) > 0:
            body += para(tr.ngettext("…and {n} more question", "…and {n} more questions", more))
        body += para(tr._("/review in the chat serves the due questions."))
    else:
        body = empty(tr._("Your review queue is empty. Questions you miss come back here."))
    count = figure("queued", len(page.queue), tr.number(len(page.queue)))
    return section(tr._("Review queue"), body, key="queue", extra=f'<p class="count">{count}</p>')


def _scores(tr: Translator, page: LearnerPage) -> str:
    lang = tr.lang
    rows = []
    for score, quiz in page.scores:
        total = tr.number(score.total)
        best_of = f"{tr.number(score.best)}/{tr.number(score.best_total)}"
        best = figure(f"best-{quiz.id}", score.best, best_of)
        last = esc(f"{tr.number(score.last)}/{total}")
        rows.append([esc(quiz.title.get(lang)), best, last, esc(tr.number(score.attempts))])
    if rows:
        head = [tr._("Quiz"), tr._("Best"), tr._("Last"), tr._("Attempts")]
        body = table(head, rows, key="scores")
    else:
        body = empty(tr._("No quiz finished yet."))
    return section(tr._("Best scores"), body, key="scores")


def _exams(tr: Translator, page: LearnerPage) -> str:
    """Finished exams, per quiz, apart from the quizzes' scores (shown only once there is one)."""
    if not page.exams:
        return ""
    lang = tr.lang
    rows = []
    for score, quiz in page.exams:
        total = tr.number(score.total)
        best_of = f"{tr.number(score.best)}/{tr.number(score.best_total)}"
        best = figure(f"exam-best-{quiz.id}", score.best, best_of)
        last = esc(f"{tr.number(score.last)}/{total}")
        rows.append([esc(quiz.title.get(lang)), best, last, esc(tr.number(score.attempts))])
    head = [tr._("Quiz"), tr._("Best"), tr._("Last"), tr._("Attempts")]
    return section(tr._("Exams"), table(head, rows, key="exams"), key="exams")
