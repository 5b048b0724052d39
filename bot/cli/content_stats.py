"""`quizbot content stats [--quiz ID] [--since DATE|Nd] [--format text|csv] [--db PATH]`: item
analysis of every question, over every learner's first sitting (private attempts and group
runs), for the content's authors.

Per question: answerers, difficulty (share right), point-biserial against the rest score,
upper–lower 27 % index, each wrong option's share (overall and among the strongest), and the
flags of bot/core/item_analysis.py. Under 20 answerers the text says the figures are not reliable
yet instead of printing them; the CSV keeps them, with `reliable` 0 and no flags, for authors
who pool several exports. Privacy: counts and shares only, never a user id, name or chat.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.cli.content_reports import engine_for, parse_since
from bot.config import ConfigError, Settings
from bot.content.loader import load_catalog
from bot.content.problems import ContentError
from bot.content.sources import default_content_dir
from bot.core.item_analysis import MIN_ANSWERERS, Flag
from bot.core.markup import plain
from bot.core.models import Catalog, Question
from bot.csv_cells import sheet
from bot.store import StoreError
from bot.store.analytics import AnalyticsStore, ItemRow
from bot.store.interface import Engine
from bot.usecases.item_reports import AnalysedItem, QuizItems, analysed

FLAG_TEXT = {
    Flag.NEGATIVE: "probably mis-keyed: negative discrimination (the stronger do worse on it)",
    Flag.DISTRACTOR_BEATS_KEY: "probably mis-keyed: the strongest choose {option} over the key",
    Flag.TOO_EASY: "too easy: over 95% right",
    Flag.UNUSED_DISTRACTOR: "a distractor nobody picks: {option}",
}
CSV_HEAD = (
    "quiz_id",
    "question_id",
    "position",
    "option_id",
    "text",
    "answerers",
    "reliable",
    "difficulty",
    "point_biserial",
    "upper_lower",
    "key_upper_share",
    "share",
    "upper_share",
    "flags",
)


def configure_stats(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--quiz", help="one quiz only")
    cmd.add_argument("--since", help="answers since a date (YYYY-MM-DD, UTC) or N days (30d)")
    cmd.add_argument("--format", choices=("text", "csv"), default="text")
    cmd.add_argument("--db", type=Path, help="the bot's SQLite file (default: env QUIZBOT_DB)")
    cmd.add_argument("--content", type=Path, help="content directory (the quizzes' keys)")


def run_stats(args: argparse.Namespace) -> int:
    prog = "quizbot content stats"
    try:
        since = parse_since(args.since, datetime.now(UTC))
        settings = Settings.from_env()
    except (ValueError, ConfigError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    try:  # the keys come from the content: without it there is nothing to analyse
        catalog = load_catalog(args.content or default_content_dir())
    except ContentError as exc:
        print(f"{prog}: the content does not load: {exc}", file=sys.stderr)
        return 1
    engine = engine_for(args.db, settings, prog)
    if engine is None:
        return 1
    try:
        rows = asyncio.run(_read(engine, args.quiz, since))
    except StoreError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    quizzes = analysed(catalog, rows)
    if args.format == "csv":
        sys.stdout.write(sheet(CSV_HEAD, csv_rows(quizzes), lineterminator="\n"))
    else:
        print(format_text(quizzes, catalog))
    return 0


async def _read(engine: Engine, quiz_id: str | None, since: float) -> list[ItemRow]:
    await engine.open()
    try:
        return await AnalyticsStore(engine).item_responses(quiz_id=quiz_id, since=since)
    finally:
        await engine.close()


def format_text(quizzes: list[QuizItems], catalog: Catalog) -> str:
    if not quizzes:
        return "No answers to analyse."
    lines: list[str] = []
    for quiz in quizzes:
        lang = quiz.quiz.languages[0] if quiz.quiz.languages else "en"
        lines += ["", f"{quiz.quiz.id} · {quiz.quiz.title.get(lang)}"]
        flagged = {id(i) for i in quiz.flagged}
        # The flagged questions first (mis-keyed ones first), then the others in quiz order.
        for item in [*quiz.flagged, *(i for i in quiz.items if id(i) not in flagged)]:
            lines += _item_text(item, lang)
    return "\n".join(lines).lstrip("\n")


def _item_text(item: AnalysedItem, lang: str) -> list[str]:
    a, q = item.analysis, item.question
    prompt = _short(plain(q.prompt.get(lang)), 70)
    lines = [f"  {item.position + 1}. {q.id}: {prompt}"]
    if not a.reliable:
        lines.append(
            f"     {a.answerers} answerer{'s' * (a.answerers != 1)}: figures not reliable "
            f"before {MIN_ANSWERERS}"
        )
        return lines
    lines.append(
        f"     {a.answerers} answerers · {_pct(a.difficulty)} right · point-biserial "
        f"{_fig(a.point_biserial)} · upper–lower {_fig(a.upper_lower)}"
    )
    if a.distractors:
        wrong = ", ".join(
            f"{d.option_id} {_pct(d.share)} (strongest {_pct(d.upper_share)})"
            for d in a.distractors
        )
        lines.append(f"     wrong options: {wrong}; key among the strongest "
                     f"{_pct(a.key_upper_share or 0.0)}")  # fmt: skip
    for flag, option in a.flags:
        lines.append("     ⚠ " + FLAG_TEXT[flag].format(option=_option(q, option, lang)))
    return lines


def csv_rows(quizzes: list[QuizItems]) -> list[list[object]]:
    """A row per question (option_id empty), then one per wrong option; every figure rounded
    to 4 places, empty where it cannot be computed."""
    rows: list[list[object]] = []
    for quiz in quizzes:
        lang = quiz.quiz.languages[0] if quiz.quiz.languages else "en"
        for item in quiz.items:
            a, q = item.analysis, item.question
            common = [a.answerers, int(a.reliable), _num(a.difficulty), _num(a.point_biserial),
                      _num(a.upper_lower), _num(a.key_upper_share)]  # fmt: skip
            question_flags = ";".join(f.value for f, o in a.flags if not o)
            rows.append([quiz.quiz.id, q.id, item.position + 1, "", plain(q.prompt.get(lang)),
                         *common, "", "", question_flags])  # fmt: skip
            for d in a.distractors:
                mine = ";".join(f.value for f, o in a.flags if o == d.option_id)
                rows.append([quiz.quiz.id, q.id, item.position + 1, d.option_id,
                             _option_text(q, d.option_id, lang), *common, _num(d.share),
                             _num(d.upper_share), mine])  # fmt: skip
    return rows


def _option_text(question: Question, option_id: str, lang: str) -> str:
    text = next((o.text.get(lang) for o in question.options if o.id == option_id), "")
    return plain(text)


def _option(question: Question, option_id: str, lang: str) -> str:
    return f'{option_id} "{_short(_option_text(question, option_id, lang), 40)}"'


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _pct(value: float) -> str:
    return f"{round(100 * value)}%"


def _fig(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _num(value: float | None) -> object:
    return "" if value is None else round(value, 4)
