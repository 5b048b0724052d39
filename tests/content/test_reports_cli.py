"""`quizbot content reports` on a real database file: grouped by quiz, question and language,
most-reported first, reasons, sentences and versions shown, no user id printed; --quiz and
--since filter; a missing file or a bad --since is a clear message."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli.content import main
from bot.store import Database
from bot.store.interface import Engine
from bot.store.pg.database import PgDatabase
from bot.store.problem_reports import NewReport, ProblemReportStore
from tests.pgserver import pg_cluster, pg_dsn

__all__ = ["pg_cluster", "pg_dsn"]  # fixtures: the PostgreSQL variant below

ACC, CHK = "gradient-accumulation", "gradient-checkpointing"
DAY = 86_400.0
T0 = 1_790_000_000.0  # 2026-09-21


async def fill(db: Engine) -> None:
    await db.open()
    try:
        store = ProblemReportStore(db)
        rows = [
            (424242, ACC, "purpose", "wo", "v1", "translation", T0, "Baat bii du Wolof."),
            (434343, ACC, "purpose", "wo", "v2", "translation", T0 + DAY, None),
            (434343, ACC, "purpose", "wo", "v2", "unclear", T0 + 2 * DAY, None),
            (424242, CHK, "trade-off", "en", "v9", "key", T0 + 3 * DAY, "B is right <b>too</b>"),
        ]
        for user, quiz, question, lang, version, reason, when, text in rows:
            made = await store.add(NewReport(user, quiz, question, lang, version, reason), when,
                                   when + 300)  # fmt: skip
            assert made is not None
            if text:
                assert await store.add_text(user, made, text, when + 1)
    finally:
        await db.close()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_reports_are_grouped_most_reported_first_without_user_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("QUIZBOT_DB", raising=False)
    db = tmp_path / "bot.sqlite3"
    asyncio.run(fill(Database(db)))
    status, out, err = run(capsys, "reports", "--db", str(db))
    assert status == 0 and err == ""
    assert out.startswith("4 problem reports on 2 question(s):")
    first = out.index(f"{ACC} · purpose · wo: 3 reports by 2 learners")
    second = out.index(f"{CHK} · trade-off · en: 1 report by 1 learner")
    assert first < second  # the most reported first
    assert "question 1/" in out  # where the question sits in the content now, with its text
    assert "reasons: translation wrong 2, unclear 1" in out
    assert "content versions: v2 (2), v1 (1)" in out
    assert "- 2026-09-21: Baat bii du Wolof." in out
    assert "reasons: answer key looks wrong 1" in out and "B is right <b>too</b>" in out
    assert "424242" not in out and "434343" not in out  # never who

    status, out, _ = run(capsys, "reports", "--db", str(db), "--quiz", CHK)
    assert status == 0 and ACC not in out and f"{CHK} · trade-off" in out

    status, out, _ = run(capsys, "reports", "--db", str(db), "--since", "2026-09-23")
    assert status == 0 and out.startswith("2 problem reports on 2 question(s):")
    assert f"{ACC} · purpose · wo: 1 report by 1 learner" in out

    status, out, _ = run(capsys, "reports", "--db", str(db), "--since", "1d")
    assert status == 0 and out.strip() == "No problem reports."


def test_a_missing_database_or_a_bad_since_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "reports", "--db", str(tmp_path / "none.sqlite3"))
    assert status == 1 and "no database at" in err
    status, _, err = run(capsys, "reports", "--db", str(tmp_path / "x"), "--since", "yesterday")
    assert status == 2 and "--since 'yesterday'" in err and "Traceback" not in err


def test_reports_are_read_from_postgresql_too(
    pg_dsn: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    asyncio.run(fill(PgDatabase(pg_dsn)))
    monkeypatch.setenv("QUIZBOT_DB", pg_dsn)
    status, out, err = run(capsys, "reports", "--quiz", ACC)
    assert status == 0 and err == "", err
    assert f"{ACC} · purpose · wo: 3 reports by 2 learners" in out and CHK not in out
