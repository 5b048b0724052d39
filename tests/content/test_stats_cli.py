"""`quizbot content stats` on a real database (SQLite, and PostgreSQL through QUIZBOT_DB) and a
content directory whose quiz has a deliberately wrong key: the text lists the mis-keyed question
first with its flags, the CSV goes through the one CSV writer with a row per question and per
wrong option; --quiz and --since filter; under 20 answerers the figures are withheld; a missing
database is one clear line."""

from __future__ import annotations

import asyncio
import csv
import io
import shutil
from pathlib import Path

import pytest

from bot.cli.content import main
from bot.content.sources import default_content_dir
from bot.store import Database
from bot.store.interface import Engine
from bot.store.pg.database import PgDatabase
from tests.item_tables import MEMBERS, QUESTIONS, QUIZ
from tests.pgserver import pg_cluster, pg_dsn
from tests.usecases.item_analysis_kit import NOW, run_quiz

__all__ = ["pg_cluster", "pg_dsn"]  # fixtures: the PostgreSQL variant below


def miskeyed_content(tmp_path: Path) -> Path:
    """The shipped content with effective-batch keyed on a ("4") instead of c ("32")."""
    target = Path(shutil.copytree(default_content_dir(), tmp_path / "content"))
    quiz = target / "quizzes" / f"{QUIZ}.yaml"
    text = quiz.read_text(encoding="utf-8")
    start = text.index("  effective-batch:\n")
    at = text.index("    answer: c\n", start)
    quiz.write_text(text[:at] + "    answer: a\n" + text[at + 14 :], encoding="utf-8")
    return target


async def fill(db: Engine, members: int = MEMBERS) -> None:
    await db.open()
    try:
        await run_quiz(db, members, NOW)
    finally:
        await db.close()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_miskeyed_question_comes_first_with_its_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("QUIZBOT_DB", raising=False)
    db, content = tmp_path / "bot.sqlite3", miskeyed_content(tmp_path)
    asyncio.run(fill(Database(db)))
    status, out, err = run(capsys, "stats", "--db", str(db), "--content", str(content))
    assert status == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == f"{QUIZ} · Gradient accumulation"
    assert lines[1].startswith("  2. effective-batch: Micro-batches of 4")  # flagged first
    assert lines[2].startswith(f"     {MEMBERS} answerers · 36% right · point-biserial -0.")
    assert "probably mis-keyed: negative discrimination" in out
    assert 'probably mis-keyed: the strongest choose c "32" over the key' in out
    assert out.count("probably mis-keyed") == 2  # only that question
    assert "  1. purpose:" in out and "5000" not in out  # every question; never a user id

    status, out, _ = run(capsys, "stats", "--db", str(db), "--content", str(content),
                         "--format", "csv")  # fmt: skip
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    questions = [r for r in rows if not r["option_id"]]
    assert [r["question_id"] for r in questions][:2] == ["purpose", "effective-batch"]
    assert len(questions) == QUESTIONS
    mk = next(r for r in questions if r["question_id"] == "effective-batch")
    assert mk["answerers"] == str(MEMBERS) and mk["reliable"] == "1"
    assert mk["difficulty"] == "0.36" and float(mk["point_biserial"]) < 0
    assert mk["flags"] == "negative"
    truth = next(r for r in rows if r["question_id"] == "effective-batch" and r["option_id"] == "c")
    assert truth["text"] == "32" and truth["upper_share"] == "1.0"
    assert truth["flags"] == "distractor_beats_key"

    status, out, _ = run(capsys, "stats", "--db", str(db), "--content", str(content),
                         "--quiz", "gradient-checkpointing")  # fmt: skip
    assert status == 0 and out.strip() == "No answers to analyse."
    status, out, _ = run(capsys, "stats", "--db", str(db), "--content", str(content),
                         "--since", "2030-01-01")  # fmt: skip
    assert status == 0 and out.strip() == "No answers to analyse."


def test_under_twenty_answerers_the_figures_are_withheld(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("QUIZBOT_DB", raising=False)
    db = tmp_path / "bot.sqlite3"
    asyncio.run(fill(Database(db), members=12))
    status, out, _ = run(capsys, "stats", "--db", str(db), "--content",
                         str(miskeyed_content(tmp_path)))  # fmt: skip
    assert status == 0
    assert "12 answerers: figures not reliable before 20" in out
    assert "point-biserial" not in out and "mis-keyed" not in out


def test_a_missing_database_or_a_bad_since_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "stats", "--db", str(tmp_path / "none.sqlite3"))
    assert (
        status == 1
        and err.strip() == f"quizbot content stats: no database at {tmp_path}/none.sqlite3"
    )
    status, _, err = run(capsys, "stats", "--since", "last week")
    assert status == 2 and "--since 'last week'" in err and "Traceback" not in err


def test_stats_are_read_from_postgresql_too(
    tmp_path: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    asyncio.run(fill(PgDatabase(pg_dsn)))
    monkeypatch.setenv("QUIZBOT_DB", pg_dsn)
    status, out, err = run(capsys, "stats", "--content", str(miskeyed_content(tmp_path)))
    assert status == 0 and err == "", err
    assert out.splitlines()[1].startswith("  2. effective-batch:")
    assert out.count("probably mis-keyed") == 2
