"""`quizbot run --workers N`: the supervisor starts, restarts and stops worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

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


def test_workers_need_postgresql_and_a_webhook(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BOT_TOKEN", "123:abc")
    monkeypatch.setenv("QUIZBOT_DB", "data/quizbot.sqlite3")
    assert main(["run", "--workers", "2"]) == 2
    assert "QUIZBOT_DB=postgresql://" in capsys.readouterr().err
    monkeypatch.setenv("QUIZBOT_DB", "mysql://somewhere/db")
    assert main(["run", "--workers", "2"]) == 2
    assert "QUIZBOT_DB" in capsys.readouterr().err
