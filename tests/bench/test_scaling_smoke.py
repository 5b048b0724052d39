"""`quizbot bench scaling` at a tiny size: every configuration answers every tap, its cost is
read, and the report gives each round's ratios and their median (never how fast anything is)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.bench.scaling import main
from bot.store.pg.cluster import NoPostgres, find_bindir

pytestmark = pytest.mark.timeout(240)


def test_tiny_scaling_run_answers_every_tap_in_every_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        find_bindir()
    except NoPostgres as exc:
        pytest.skip(str(exc))
    out = tmp_path / "scaling.json"
    argv = ["--members", "40", "--concurrency", "8", "--learners", "1", "--seconds", "1"]
    argv += ["--workers", "1", "--no-pacing", "--repeat", "2", "--json", str(out)]
    assert main(argv) == 0
    results = json.loads(out.read_text())["results"]
    labels = [(r["label"], r["round"]) for r in results]
    configurations = [
        "SQLite, 1 process",
        "SQLite, 1 process, webhook",
        "PostgreSQL, 1 worker(s)",
        "PostgreSQL, 1 worker(s), long polling",
    ]
    assert labels == [(c, n) for n in (1, 2) for c in configurations]
    for r in results:
        assert r["burst_taps"] == 40, r["label"]  # every member's tap got its popup
        assert r["burst_cpu_bot"] > 0
        assert (r["burst_cpu_db"] > 0) == r["label"].startswith("PostgreSQL"), r["label"]
    printed = capsys.readouterr().out
    assert "PG 1 worker (webhook) / SQLite: burst CPU per tap" in printed
    assert "PG 1 worker (webhook) / SQLite by webhook: burst CPU per tap" in printed
    assert "PG 1 worker (long polling) / SQLite: burst CPU per tap" in printed
    assert "the median of the 2 rounds'" in printed
