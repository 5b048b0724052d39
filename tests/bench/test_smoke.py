"""The benchmark at a tiny size: what it counts must be right (never how fast anything is)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.bench.cli import main
from bot.bench.learners import percentile

pytestmark = pytest.mark.timeout(180)


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert [percentile(values, p) for p in (50, 95, 99, 100)] == [50.0, 95.0, 99.0, 100.0]
    assert percentile([], 99) == 0.0
    assert percentile([3.0], 50) == 3.0


def test_tiny_run_counts_every_tap_and_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bench.json"
    code = main(
        [
            "--quick",
            "--only",
            "private,baseline,startup",
            "--json",
            str(out),
            "--workdir",
            str(tmp_path / "work"),
        ]
    )
    report = json.loads(out.read_text())
    assert code == 0, report["problems"]
    assert report["problems"] == []
    runs = {(r["kind"], r["mode"]): r for r in report["private"]}
    assert set(runs) == {("quizbot", "paced 20/s"), ("baseline", "paced 20/s")}
    for run in runs.values():
        tally = run["tally"]
        assert tally["taps"] > 0
        assert tally["answered"] == tally["taps"]  # every tap got its answerCallbackQuery
        assert tally["errors"] == 0
        for series in ("popup_ms", "screen_ms"):
            p = run[series]
            assert 0 < p["50"] <= p["95"] <= p["99"]
    quizbot = runs["quizbot", "paced 20/s"]
    db = quizbot["db"]
    # Every answer the bot accepted (a verdict popup) is in the DB, once.
    assert db["answers"] == quizbot["tally"]["accepted"] > 0
    assert db["distinct"] == db["answers"]
    assert db["bytes_per_answer"] > 0
    startup = report["startup"]
    assert startup["quizzes"] == 10
    assert 0 < startup["load_catalog"] <= startup["to_polling"]
    assert "counts check: OK" in capsys.readouterr().out
