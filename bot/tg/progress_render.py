"""What /stats, /review and /groupstats show: HTML texts and keyboards, never a call.

Numbers, percentages and dates go through Babel in the reader's language; every content string is
escaped; long reports are cut at a line, never through a tag.
"""

from __future__ import annotations

import html
from datetime import tzinfo

from babel.lists import format_list

from bot.core.markup import plain
from bot.core.models import Catalog, Question
from bot.core.review import local_day
from bot.core.stats import QuestionStats, hardest_first
from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.number_words import with_unit
from bot.store.analytics import TYPED
from bot.tg.item_render import flagged_items, item_lines
from bot.tg.long_lists import bounded
from bot.tg.screen_render import (
    Screen,
    guide_link,
    more_questions,
    more_quizzes,
    quiz_title,
    shown_name,
    truncate,
)
from bot.usecases.learner_stats import GroupReport, LearnerStats


def day(tr: Translator, moment: float, tz: tzinfo) -> str:
    return tr.day(local_day(moment, tz))


def _order(code: str) -> tuple[int, str]:
    """Supported languages in their fixed order, any other code after them."""
    known = (
        SUPPORTED_LANGUAGES.index(code) if code in SUPPORTED_LANGUAGES else len(SUPPORTED_LANGUAGES)
    )
    return known, code


def stats(tr: Translator, catalog: Catalog, data: LearnerStats, lang: str) -> Screen:
    heading = tr._("📈 Your progress")
    lines = [f"<b>{heading}</b>", ""]
    lines.append(tr._("Quizzes taken: {n}", n=tr.number(len(data.scores))))
    if data.exams:
        lines.append(tr._("Exams taken: {n}", n=tr.number(len(data.exams))))
    lines.append(tr.ngettext("Streak: {n} day", "Streak: {n} days", data.streak))
    lines.append(
        tr._(
            "Reviews due now: {due} (in your queue: {queued})",
            due=tr.number(data.due),
            queued=tr.number(data.queued),
        )
    )
    if data.next_due_day is not None and not data.due:
        lines.append(tr._("Next review: {date}.", date=tr.day(data.next_due_day)))
    if data.recall is not None:
        lines.append(
            tr._(
                "🧠 You'd remember your queue ~{percent} today (FSRS's prediction).",
                percent=tr.percent(data.recall),
            )
        )
    scores = []
    sections = ((tr._("Scores"), data.scores), (tr._("Exams"), data.exams))
    for heading, shown in sections:
        if not shown:
            continue
        section = []
        for score in shown:
            quiz = catalog.quiz(score.quiz_id)
            title = html.escape(quiz_title(quiz, lang)) if quiz else score.quiz_id
            section.append(
                tr._(
                    "• {title}: best {best}/{best_total}, last {last}/{total}",
                    title=title,
                    best=tr.number(score.best),
                    best_total=tr.number(score.best_total),
                    last=tr.number(score.last),
                    total=tr.number(score.total),
                )
            )
        # The heading goes with its first line: a cut list never ends on a bare heading.
        section[0] = f"\n<b>{heading}</b>\n{section[0]}"
        scores += section
    after: list[str] = []  # under the scores: their guides (few: the shipped ones) and a hint
    if data.by_guide:
        heading = tr._("Accuracy by guide")
        after += ["", f"<b>{heading}</b>"]
        for guide, accuracy in data.by_guide:
            after.append(
                tr.ngettext(
                    "• {guide}: {percent} of {n} answer",
                    "• {guide}: {percent} of {n} answers",
                    accuracy.total,
                    guide=guide_link(guide, lang),
                    percent=tr.percent(accuracy.ratio),
                )
            )
    if not data.scores and not data.by_guide and not data.exams and not data.queued:
        after += ["", tr._("No answers yet. /quizzes to take your first quiz.")]
    elif data.due:
        after += ["", tr._("/review to go over the questions you missed.")]
    return Screen(bounded(lines, scores, lambda n: more_quizzes(tr, n), after))


def group_notice(tr: Translator, missed: int, chat_title: str) -> str:
    return tr.ngettext(
        "The question you missed in {group} joined your review queue. /review brings it back "
        "from tomorrow.",
        "The {n} questions you missed in {group} joined your review queue. /review brings them "
        "back from tomorrow.",
        missed,
        group=shown_name(chat_title) if chat_title else tr._("your study group"),
    )


def group_report(tr: Translator, catalog: Catalog, report: GroupReport, lang: str) -> Screen:
    """Runs, participation, then per question: share right, likeliest wrong option, languages."""
    t = report.totals
    heading = tr._("📊 Group statistics")
    lines = [
        f"<b>{heading}</b>",
        "",
        tr._(
            "Runs: {runs} ({finished})",
            runs=tr.number(t.runs),
            finished=tr.ngettext("{n} finished", "{n} finished", t.finished),
        ),
        tr._(
            "Members who answered: {members} · answers: {answers}",
            members=tr.number(t.members),
            answers=tr.number(t.answers),
        ),
    ]
    if t.runs:
        lines.append(
            tr._(
                "Average players per run: {avg}", avg=tr.number(round(t.participations / t.runs, 1))
            )
        )
    # The flagged questions first (item analysis), then every question as before.
    flagged = flagged_items(tr, report.items, lang)
    if flagged:
        lines.append(flagged[0])  # their heading
    hardest = tr._("Hardest questions first.")
    below = ["", f"<i>{hardest}</i>"] if report.questions else []
    # Stats are kept by question and option ids: each question is shown where it sits in its
    # quiz now, with its text now; questions that left the content are left out.
    positions = {
        (quiz.id, question.id): k
        for quiz in catalog.known_quizzes()
        for k, question in enumerate(quiz.questions)
    }
    analysis = {
        (quiz.quiz.id, item.question.id): item.analysis
        for quiz in report.items
        for item in quiz.items
    }
    quiz_shown = None
    items = flagged[1:]
    if not flagged:
        lines += below
        below = []
    # a question each (under its quiz's title when the quiz changes), hardest first
    for q, position, tied in hardest_first(report.questions, positions):
        quiz = catalog.known(q.quiz_id)  # a group's own quiz too
        if quiz is None:
            continue
        item, below = below, []  # under the flagged ones, the heading of the rest
        if quiz_shown != quiz.id:
            item += ["", f"<b>{html.escape(quiz_title(quiz, lang))}</b>"]
            quiz_shown = quiz.id
        item += _question_lines(tr, q, quiz.questions[position], position, tied, lang)
        if (found := analysis.get((q.quiz_id, q.question_id))) is not None:
            item += item_lines(tr, found, quiz.questions[position], lang)
        reported = report.reports.get((q.quiz_id, q.question_id), 0)
        if reported:
            item.append(
                tr.ngettext(
                    "   ⚠️ {n} problem report from learners",
                    "   ⚠️ {n} problem reports from learners",
                    reported,
                )
            )
        items.append("\n".join(item))
    if not report.questions:
        lines += ["", tr._("No answers in this group yet. /push to start a quiz.")]
    return Screen(bounded(lines, items, lambda n: "\n" + more_questions(tr, n)))


def _question_lines(
    tr: Translator,
    q: QuestionStats,
    question: Question,
    position: int,
    tied: list[int],
    lang: str,
) -> list[str]:
    prompt = html.escape(truncate(plain(question.prompt.get(lang)), 60))
    # The prompt on a line of its own: it often ends in "?", which no label may follow.
    lines = [
        f"{tr.number(position + 1)}. {prompt}",
        tr.ngettext(
            "   {percent} right, of {n} answer",
            "   {percent} right, of {n} answers",
            q.overall.total,
            percent=tr.percent(q.overall.ratio),
        ),
    ]
    if tied:
        others = format_list([tr.number(i + 1) for i in tied], locale=tr.locale)
        lines.append(
            tr.ngettext(
                "   as hard as question {others}",
                "   as hard as questions {others}",
                len(tied),
                others=others,
            )
        )
    wrong = next((o for o in question.options if o.id == q.most_chosen_wrong), None)
    option = None
    if wrong is not None:
        option = html.escape(truncate(plain(wrong.text.get(lang)), 50))
    elif question.typed and (value := typed_value(q.most_chosen_wrong)) is not None:
        option = html.escape(with_unit(tr, value, question.unit.get(lang)))  # the value typed
    if option is not None and q.most_chosen_wrong is not None:
        lines.append(
            tr._(
                "   most chosen wrong answer: {option} ({n})",
                option=option,
                n=tr.number(q.wrong_choices[q.most_chosen_wrong]),
            )
        )
    languages = " · ".join(
        f"{html.escape(tr.language_label(code))} {tr.percent(acc.ratio)} ({tr.number(acc.total)})"
        for code, acc in sorted(q.by_language.items(), key=lambda item: _order(item[0]))
    )
    lines.append(tr._("   by language: {languages}", languages=languages))
    return lines


def typed_value(option: str | None) -> float | None:
    """The value behind a number question's answer "option" (`=0.4`, see analytics.TYPED)."""
    if option is None or not option.startswith(TYPED):
        return None
    try:
        return float(option[len(TYPED) :])
    except ValueError:
        return None
