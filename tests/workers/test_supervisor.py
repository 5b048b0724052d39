"""`quizbot run --workers N`: the supervisor starts, restarts and stops worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from bot.__main__ import main
from bot.workers.supervisor import supervise

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]
QUITTER = [sys.executable, "-c", "raise SystemExit(3)"]


def _terminate_when(started: list[subprocess.Popen[bytes]], count: int) -> threading.Thread:
    """SIGTERM to this process once `count` workers were started (bounded by the test timeout)."""

    def watch() -> None:
        while len(started) < count:
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_a_dead_worker_is_started_again_and_all_stop_on_sigterm() -> None:
    started: list[subprocess.Popen[bytes]] = []
    commands: list[list[str]] = []

    def popen(command: list[str]) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(command)
        started.append(proc)
        commands.append(command)
        return proc

    # Worker 0 dies at once the first time; worker 1 keeps running.
    def command(i: int) -> list[str]:
        return QUITTER if i == 0 and not commands else SLEEPER

    _terminate_when(started, 3)
    assert supervise(2, command, grace=1, popen=popen) == 0
    assert len(started) == 3  # worker 0 twice (it died once), worker 1 once
    assert all(p.poll() is not None for p in started)  # every one has stopped


def test_workers_need_postgresql(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BOT_TOKEN", "123:abc")
    monkeypatch.setenv("QUIZBOT_DB", "data/quizbot.sqlite3")
    assert main(["run", "--workers", "2"]) == 2
    assert "QUIZBOT_DB=postgresql://" in capsys.readouterr().err
    monkeypatch.setenv("QUIZBOT_DB", "mysql://somewhere/db")
    assert main(["run", "--workers", "2"]) == 2
    assert "QUIZBOT_DB" in capsys.readouterr().err


@pytest.mark.parametrize("webhook", [None, "https://bot.example.org/telegram"])
def test_workers_long_poll_without_a_webhook_and_register_it_once_with_one(
    monkeypatch: pytest.MonkeyPatch, webhook: str | None
) -> None:
    """A host without a public HTTPS address runs workers too: one of them at a time long-polls
    (bot/workers/poller.py). With a webhook, worker 0 registers it and nobody polls."""
    from bot.workers import supervisor

    monkeypatch.setenv("BOT_TOKEN", "123:abc")
    monkeypatch.setenv("QUIZBOT_DB", "postgresql://quizbot@localhost/quizbot")
    monkeypatch.delenv("QUIZBOT_WEBHOOK_URL", raising=False)
    monkeypatch.setenv("QUIZBOT_WEBHOOK_SECRET", "s3cret-token_1")
    commands: list[list[str]] = []

    def supervise(count: int, command: Any, **kwargs: Any) -> int:
        commands.extend(command(i) for i in range(count))
        return 0

    monkeypatch.setattr(supervisor, "supervise", supervise)
    argv = ["run", "--workers", "2"] + (["--webhook-url", webhook] if webhook else [])
    assert main(argv) == 0
    assert len(commands) == 2
    if webhook is None:
        assert all("--poll" in c and "--webhook-url" not in c for c in commands)
        assert not any("--set-webhook" in c for c in commands)
    else:
        assert not any("--poll" in c for c in commands)
        assert ["--set-webhook" in c for c in commands] == [True, False]
