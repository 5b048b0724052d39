"""The group page's sections as CSV: the same numbers the admin sees, one file per section.

Written by the project's one CSV writer (bot/csv_cells.py), so a member named
"=HYPERLINK(...)" stays text in a spreadsheet. Column names are stable English keys (for
spreadsheets and scripts); content text (quiz titles, questions, options) is in the viewer's
language, as on the page.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.core.markup import plain
from bot.core.schedule import decode_days, encode_days
from bot.csv_cells import sheet
from bot.usecases.dashboard import GroupPage

SECTIONS = ("weeks", "questions", "items", "standings", "schedules")
LETTERS = "ABCDEFGHIJ"


def weeks(page: GroupPage, lang: str) -> str:
    return sheet(
        ("week_start", "runs", "players"),
        ((w.start.isoformat(), w.count, w.right) for w in page.weeks),
    )


def questions(page: GroupPage, lang: str) -> str:
    rows = []
    for rank, hard in enumerate(page.hardest, start=1):
        q, s = hard.question, hard.stats
        for code, counts in hard.chosen.items():
            for option, count in enumerate(counts):
                rows.append(
                    (
                        rank,
                        hard.quiz.id,
                        hard.position + 1,
                        q.id,
                        q.prompt.get(lang),
                        f"{s.overall.ratio:.4f}",
                        s.overall.total,
                        code,
                        LETTERS[option],
                        q.options[option].text.get(lang),
                        int(option in (q.correct_set or {q.correct})),
                        count,
                    )
                )
    head = (
        "rank", "quiz_id", "question_number", "question_id", "question", "share_right",
        "answers", "language", "option", "option_text", "is_right", "chosen",
    )  # fmt: skip
    return sheet(head, rows)


def items(page: GroupPage, lang: str) -> str:
    """Every question's item analysis (the page shows the most useful ITEMS_SHOWN); figures to
    4 places, empty where they cannot be computed or are not reliable yet."""

    def num(value: float | None, reliable: bool) -> object:
        return "" if value is None or not reliable else round(value, 4)

    rows = []
    for quiz in page.items:
        for item in quiz.items:
            a, q = item.analysis, item.question
            rows.append(
                (
                    quiz.quiz.id,
                    item.position + 1,
                    q.id,
                    plain(q.prompt.get(lang)),
                    a.answerers,
                    int(a.reliable),
                    num(a.difficulty, a.reliable),
                    num(a.point_biserial, a.reliable),
                    num(a.upper_lower, a.reliable),
                    ";".join(sorted({flag.value for flag, _ in a.flags})),
                )
            )
    head = (
        "quiz_id", "question_number", "question_id", "question", "answerers", "reliable",
        "share_right", "discrimination", "upper_lower", "flags",
    )  # fmt: skip
    return sheet(head, rows)


def standings(page: GroupPage, lang: str) -> str:
    return sheet(
        ("rank", "user_id", "name", "right", "answers", "runs", "elapsed_ms"),
        (
            (p.rank, t.user_id, t.name, t.correct, t.answered, t.runs, t.elapsed_ms)
            for p in page.standings
            for t in (p.tally,)
        ),
    )


def schedules(page: GroupPage, lang: str) -> str:
    return sheet(
        ("schedule_id", "quiz", "days", "at_time", "timezone", "next_run"),
        (
            (
                u.schedule.id,
                u.schedule.quiz,
                encode_days(decode_days(u.schedule.days)),
                u.schedule.at_time,
                str(page.timezone),
                datetime.fromtimestamp(u.next_at, page.timezone).isoformat(),
            )
            for u in page.upcoming
        ),
    )


WRITERS: dict[str, Callable[[GroupPage, str], str]] = {
    "weeks": weeks,
    "questions": questions,
    "items": items,
    "standings": standings,
    "schedules": schedules,
}
