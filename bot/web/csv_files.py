"""The group page's sections as CSV: the same numbers the admin sees, one file per section.

Column names are stable English keys (for spreadsheets and scripts); content text (quiz titles,
questions, options) is in the viewer's language, as on the page.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from bot.core.schedule import decode_days, encode_days
from bot.usecases.dashboard import GroupPage

SECTIONS = ("weeks", "questions", "standings", "schedules")
LETTERS = "ABCDEFGHIJ"


def _safe(value: object) -> object:
    """Text a spreadsheet would run as a formula (a member named "=HYPERLINK(...)") is quoted."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _write(head: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(head)
    writer.writerows([_safe(v) for v in row] for row in rows)
    return out.getvalue()


def weeks(page: GroupPage, lang: str) -> str:
    return _write(
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
    return _write(head, rows)


def standings(page: GroupPage, lang: str) -> str:
    return _write(
        ("rank", "user_id", "name", "right", "answers", "runs", "elapsed_ms"),
        (
            (rank, m.user_id, m.name, m.right, m.answers, m.runs, m.elapsed_ms)
            for rank, m in enumerate(page.standings, start=1)
        ),
    )


def schedules(page: GroupPage, lang: str) -> str:
    return _write(
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
    "standings": standings,
    "schedules": schedules,
}
