"""`quizbot run --workers N`: the supervisor starts, restarts and stops worker processes."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.emulator import Emulator
from bot.store.pg.cluster import Cluster
from bot.workers.supervisor import CANNOT_START, supervise
from tests.pgserver import new_database
from tests.reliability.support import ROOT, free_port

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


def _quizbot_run_workers(env: dict[str, str], timeout: float = 60) -> tuple[int, str]:
    """`quizbot run --workers 2` as an operator starts it; its exit status and stderr, or
    AssertionError if it is still running after `timeout` (its whole session killed then)."""
    full = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "QUIZBOT_"))},
        "PYTHONPATH": str(ROOT), "BOT_TOKEN": "123:abc", "QUIZBOT_LOG_LEVEL": "WARNING", **env,
    }  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "run", "--workers", "2"], cwd=ROOT, env=full,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        raise AssertionError(f"still running after {timeout} s:\n{err[-3000:]}") from None
    return proc.returncode, err


def test_workers_that_cannot_start_end_the_run_with_their_reason() -> None:
    """A wrong PostgreSQL URL or password (or a refused token, broken content, a port taken):
    each worker printed why it could not start and the supervisor started it again a second
    later, forever, where `quizbot run` stops with the reason and status 1."""
    code, err = _quizbot_run_workers(
        {"QUIZBOT_DB": "postgresql://quizbot:wrong@127.0.0.1:9/quizbot",
         "QUIZBOT_WEBHOOK_LISTEN": "127.0.0.1", "QUIZBOT_WEBHOOK_PORT": str(free_port())}
    )  # fmt: skip
    assert code == 1, err
    lines = err.strip().splitlines()
    assert lines and all(
        line.startswith("quizbot: cannot start: cannot use database postgresql://quizbot:***@")
        for line in lines
    ), err


def test_a_worker_that_dies_after_starting_is_still_started_again() -> None:
    """Only a worker's first start ending in CANNOT_START stops the run: a worker started again
    after a crash that cannot start yet (its database restarting) is tried again, as before."""
    started: list[subprocess.Popen[bytes]] = []

    def popen(command: list[str]) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(command)
        started.append(proc)
        return proc

    cannot_start = [sys.executable, "-c", f"raise SystemExit({CANNOT_START})"]

    def command(i: int) -> list[str]:
        if i == 1:
            return SLEEPER
        return QUITTER if len(started) < 2 else cannot_start  # a crash, then failed restarts

    _terminate_when(started, 5)
    assert supervise(2, command, grace=1, popen=popen) == 0
    assert all(p.poll() is not None for p in started)


@pytest.mark.timeout(120)
async def test_a_worker_whose_port_is_taken_says_so_and_cannot_start(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    """Another program on the workers' port: a worker ended in a traceback, which the
    supervisor restarted every second, forever."""
    dsn = await new_database(pg_cluster)
    port = free_port()
    with socket.socket() as taken:  # no SO_REUSEPORT: no worker can share it
        taken.bind(("127.0.0.1", port))
        taken.listen()
        async with Emulator(token="123:abc", flood=None) as emu:
            env = {
                **{k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "QUIZBOT_"))},
                "PYTHONPATH": str(ROOT), "BOT_TOKEN": "123:abc", "QUIZBOT_DB": dsn,
                "QUIZBOT_API_BASE_URL": emu.base_url, "QUIZBOT_LOG_LEVEL": "WARNING",
                "QUIZBOT_WEBHOOK_LISTEN": "127.0.0.1", "QUIZBOT_WEBHOOK_PORT": str(port),
                "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),  # as the supervisor gives it
            }  # fmt: skip
            done = await asyncio.to_thread(
                subprocess.run, [sys.executable, "-m", "bot.cli.worker", "--poll"], cwd=ROOT,
                env=env, capture_output=True, text=True, timeout=90,
            )  # fmt: skip
    assert done.returncode == CANNOT_START, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"quizbot: cannot start: cannot serve on 127.0.0.1:{port} ")
    assert "QUIZBOT_WEBHOOK_PORT" in line and "address already in use" in line
