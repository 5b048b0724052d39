"""The benchmark at a tiny size: what it counts must be right (never how fast anything is)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.bench.cli import main
from bot.bench.learners import percentile

pytestmark = pytest.mark.timeout(240)


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
            "private,baseline,lean,startup",
            "--json",
            str(out),
            "--workdir",
            str(tmp_path / "work"),
        ]
    )
    report = json.loads(out.read_text())
    assert code == 0, report["problems"]
    assert report["problems"] == []
    runs = {(r["name"], r["mode"]): r for r in report["private"]}
    # Two baselines: the bare bot on stock PTB (httpx) and on quizbot's own transport.
    assert set(runs) == {
        ("quizbot", "paced 20/s"),
        ("baseline", "paced 20/s"),
        ("lean baseline", "paced 20/s"),
    }
    assert runs["baseline", "paced 20/s"]["transport"] == "httpx"
    assert runs["lean baseline", "paced 20/s"]["transport"] == "aiohttp"
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
    text = capsys.readouterr().out
    assert "counts check: OK" in text
    assert "quizbot / baseline (paced)" in text and "quizbot / lean baseline (paced)" in text


def test_tiny_closed_loop_counts_every_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The closed loop's learners send /start and /stop at machine speed, with the bot's
    limiter off: a private chat's burst hold (bot/core/bursts.py) held them, and the run counted
    screens that never came (the hold answers the limiter's backlog; the bench's bot runs
    without either, as the e2e harness does)."""
    code = main(["--quick", "--only", "private,max", "--workdir", str(tmp_path / "work")])
    text = capsys.readouterr().out
    assert code == 0 and "counts check: OK" in text, text[-2000:]


def test_tiny_group_burst_and_fanout_count_every_tap_and_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """20 members, 5 groups (the fan-out waits for the next whole minute: up to ~80 s)."""
    out = tmp_path / "bench.json"
    code = main(
        [
            "--quick",
            "--only",
            "burst,fanout",
            "--json",
            str(out),
            "--workdir",
            str(tmp_path / "work"),
        ]
    )
    report = json.loads(out.read_text())
    assert code == 0, report["problems"]
    burst = report["burst"]
    assert burst["members"] == 20
    assert burst["taps_sent"] == burst["taps_answered"] == 20  # answerCallbackQuery for each
    assert burst["recorded"] == burst["recorded_distinct_members"] == 20  # once each
    assert burst["verdict_popups"] == 20
    assert burst["counts_match"] and sum(burst["db_counts"]) == 20
    assert burst["reveal_counts"] == burst["db_counts"]
    p = burst["popup_ms"]
    assert 0 < p["50"] <= p["95"] <= p["99"]
    fanout = report["fanout"]
    assert fanout["groups"] == fanout["groups_with_first_question"] == 5
    assert fanout["messages_needed"] == 10
    assert fanout["fastest_s"] == round(10 / 30, 2)
    assert fanout["all_first_questions_after_s"] >= fanout["first_question_after_s"] >= 0
    assert fanout["bot_ready_before_minute_s"] >= 1
    assert fanout["flood_errors"] >= 0
    text = capsys.readouterr().out
    assert "taps answered 20/20" in text and "5/5 groups got question 1" in text
    assert "counts check: OK" in text


def test_baseline_handles_updates_as_quizbot_does() -> None:
    from bot.bench.baseline import CONCURRENT_UPDATES
    from bot.tg.options import BotOptions

    assert BotOptions.__dataclass_fields__["concurrent_updates"].default == CONCURRENT_UPDATES
