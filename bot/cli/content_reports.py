"""`quizbot content reports [--quiz ID] [--since DATE|Nd] [--db PATH]`: what learners reported
about the questions (the "⚠️ Report" button), for the authors.

Grouped by quiz, question and language, most-reported first, each group with its reasons, the
learners' sentences and the content versions they saw. Privacy: no user id, name or chat is
printed, only how many different learners reported a question; a learner who used /forget is
no longer in the database at all. The sentences are printed as the learners wrote them (control
characters were stripped when stored): they were written for the authors.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.config import ConfigError, Settings
from bot.content.loader import load_catalog
from bot.content.problems import ContentError
from bot.content.sources import default_content_dir
from bot.core.markup import plain
from bot.core.models import Catalog, Quiz
from bot.core.problem_report import Reason
from bot.store import Database, StoreError
from bot.store.interface import Engine
from bot.store.problem_reports import ProblemReportStore, StoredReport

REASON_NAMES = {
    Reason.KEY.value: "answer key looks wrong",
    Reason.UNCLEAR.value: "unclear",
    Reason.TRANSLATION.value: "translation wrong",
    Reason.OTHER.value: "other",
}
_DAYS = re.compile(r"^(\d{1,4})d$")


@dataclass
class ReportGroup:
    """Every report on one question in one language."""

    quiz_id: str
    question_id: str
    lang: str
    learners: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    versions: Counter[str] = field(default_factory=Counter)
    texts: list[tuple[float, str]] = field(default_factory=list)
    last: float = 0.0

    @property
    def count(self) -> int:
        return sum(self.reasons.values())


def configure_reports(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--quiz", help="one quiz's reports only")
    cmd.add_argument("--since", help="reports made since a date (YYYY-MM-DD, UTC) or N days (7d)")
    cmd.add_argument("--db", type=Path, help="the bot's SQLite file (default: env QUIZBOT_DB)")
    cmd.add_argument("--content", type=Path, help="content directory, for the questions' text")


def engine_for(db: Path | None, settings: Settings, prog: str) -> Engine | None:
    """The database an authors' command reads: `--db` (a SQLite file), else QUIZBOT_DB (a file
    or a PostgreSQL DSN); None, said on stderr, when the file does not exist."""
    if db is None and settings.db_url is not None:
        from bot.store.pg.database import PgDatabase  # asyncpg only when it is used

        return PgDatabase(settings.db_url)
    path = db or settings.db_path
    if not path.is_file():
        print(f"{prog}: no database at {path}", file=sys.stderr)
        return None
    return Database(path)


def parse_since(value: str | None, now: datetime) -> float:
    """Seconds since the epoch from `--since`; ValueError with a message for anything else."""
    if not value:
        return 0.0
    days = _DAYS.fullmatch(value.strip())
    if days:
        return (now - timedelta(days=int(days.group(1)))).timestamp()
    try:
        day = datetime.strptime(value.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise ValueError(f"--since {value!r}: use a date (2026-11-30) or days (7d)") from None
    return day.timestamp()


def group(
    reports: list[StoredReport], learners: dict[tuple[str, str, str], int]
) -> list[ReportGroup]:
    """Reports by quiz, question and language; the most reported first (then the latest)."""
    groups: dict[tuple[str, str, str], ReportGroup] = {}
    for r in reports:
        key = (r.quiz_id, r.question_id, r.lang)
        g = groups.setdefault(key, ReportGroup(*key, learners=learners.get(key, 0)))
        g.reasons[r.reason] += 1
        g.versions[r.content_version] += 1
        g.last = max(g.last, r.created_at)
        if r.text:
            g.texts.append((r.created_at, r.text))
    return sorted(groups.values(), key=lambda g: (-g.count, -g.last, g.quiz_id, g.question_id))


def format_groups(groups: list[ReportGroup], catalog: Catalog | None) -> str:
    if not groups:
        return "No problem reports."
    total = sum(g.count for g in groups)
    lines = [f"{total} problem report{'s' * (total != 1)} on {len(groups)} question(s):"]
    for g in groups:
        lines += ["", _heading(g, catalog)]
        reasons = ", ".join(f"{REASON_NAMES.get(r, r)} {n}" for r, n in g.reasons.most_common())
        lines.append(f"  reasons: {reasons}")
        versions = ", ".join(f"{v} ({n})" for v, n in g.versions.most_common())
        lines.append(f"  content versions: {versions}")
        for when, text in sorted(g.texts):
            day = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d")
            lines.append(f"  - {day}: {text}")
    return "\n".join(lines)


def _heading(g: ReportGroup, catalog: Catalog | None) -> str:
    count = f"{g.count} report{'s' * (g.count != 1)}"
    people = f"{g.learners} learner{'s' * (g.learners != 1)}"
    head = f"{g.quiz_id} · {g.question_id} · {g.lang}: {count} by {people}"
    quiz = catalog.quiz(g.quiz_id) if catalog is not None else None
    where = _question_line(quiz, g.question_id, g.lang) if quiz is not None else None
    return head if where is None else f"{head}\n  {where}"


def _question_line(quiz: Quiz, question_id: str, lang: str) -> str:
    for k, question in enumerate(quiz.questions, start=1):
        if question.id == question_id:
            prompt = plain(question.prompt.get(lang))
            short = prompt if len(prompt) <= 80 else prompt[:79].rstrip() + "…"
            return f"question {k}/{len(quiz)}: {short}"
    return "(no longer in the content)"


async def _read(engine: Engine, quiz_id: str | None, since: float) -> list[ReportGroup]:
    await engine.open()
    try:
        store = ProblemReportStore(engine)
        reports = await store.listing(quiz_id, since)
        return group(reports, await store.reporters(quiz_id, since))
    finally:
        await engine.close()


def run_reports(args: argparse.Namespace) -> int:
    try:
        since = parse_since(args.since, datetime.now(UTC))
        settings = Settings.from_env()
    except (ValueError, ConfigError) as exc:
        print(f"quizbot content reports: {exc}", file=sys.stderr)
        return 2
    engine = engine_for(args.db, settings, "quizbot content reports")
    if engine is None:
        return 1
    try:
        groups = asyncio.run(_read(engine, args.quiz, since))
    except StoreError as exc:
        print(f"quizbot content reports: {exc}", file=sys.stderr)
        return 1
    try:
        catalog: Catalog | None = load_catalog(args.content or default_content_dir())
    except ContentError:
        catalog = None  # the reports still list, without the questions' text
    print(format_groups(groups, catalog))
    return 0
