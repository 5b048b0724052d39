"""Shared pieces of the reliability suite: an in-process bot with options, DB reads, content
copies, and the bot as a real subprocess (`python -m bot run`) for kill -9 and start-up failures."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.content import default_content_dir, load_catalog
from bot.core.models import Catalog
from bot.emulator import Emulator, EmuMessage, FloodLimits, SimUser
from bot.tg.options import BotOptions
from tests.e2e.harness import TOKEN, Harness

ROOT = Path(__file__).resolve().parents[2]
QUIZ = "gradient-checkpointing"
VERDICT = ("✅", "❌", "🗳")  # an accepted answer: its verdict, or (groups, no give-away) "recorded"


@dataclass
class ReliableHarness(Harness):
    rate_limit: bool = False
    admin_chat_id: int | None = None
    question_seconds: float | None = None

    def options(self) -> BotOptions:
        return replace(
            super().options(), rate_limit=self.rate_limit, admin_chat_id=self.admin_chat_id,
            question_seconds=self.question_seconds,
        )  # fmt: skip

    def count(self, sql: str = "SELECT count(*) FROM answers", *args: object) -> int:
        return int(self.rows(sql, *args)[0][0])


@asynccontextmanager
async def bot_at(
    tmp_path: Path,
    *,
    catalog: Catalog | None = None,
    flood: FloodLimits | None = None,
    **options: Any,
) -> AsyncIterator[ReliableHarness]:
    async with Emulator(token=TOKEN, flood=flood) as emu:
        h = ReliableHarness(
            emu, tmp_path / "quizbot.sqlite3", catalog or load_catalog(default_content_dir()),
            **options,
        )  # fmt: skip
        await h.start_bot()
        try:
            yield h
        finally:
            await h.stop_bot()


def handler_errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Exceptions that escaped a handler: the error handler logs each at ERROR."""
    return [
        r
        for r in caplog.records
        if r.name == "bot.tg.error_handlers" and r.levelno >= logging.ERROR
    ]


def buttons(message: EmuMessage) -> list[str]:
    return [b.text for row in message.buttons for b in row]


async def start_quiz(user: SimUser, quiz_id: str = QUIZ, total: int | None = None) -> EmuMessage:
    """The first question of `quiz_id` (`total`: its length; default the shipped quiz's)."""
    mark = user.private.mark()
    await user.send(f"/start {quiz_id}")
    total = total or shipped_length(quiz_id)
    return await user.private.wait_for(lambda m: f"1/{total}" in m.text, after=mark)


@functools.cache
def shipped_length(quiz_id: str = QUIZ) -> int:
    """How many questions a shipped quiz has (tests read it, never hard-code it)."""
    quiz = load_catalog(default_content_dir()).quiz(quiz_id)
    assert quiz is not None
    return len(quiz)


def no_leak(text: str) -> bool:
    """Nothing a user should see: a traceback, an exception name, the token."""
    lowered = text.lower()
    return "traceback" not in lowered and "error:" not in lowered and TOKEN not in text


# -- content --------------------------------------------------------------------------------


def content_copy(
    target: Path,
    *,
    questions: int | None = None,
    edit: Callable[[Path, dict[str, Any]], None] | None = None,
) -> Path:
    """A copy of the shipped content, each quiz cut to its first `questions`, optionally edited
    (`edit(path, data)` on every YAML mapping before it is written back)."""
    shutil.copytree(default_content_dir(), target)
    for path in sorted(target.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if questions is not None and isinstance(data, dict) and "questions" in data:
            keep = list(data["questions"])[:questions]
            data["questions"] = {k: data["questions"][k] for k in keep}
        if edit is not None:
            edit(path, data)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return target


# -- the bot as a process -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class BotProcess:
    """`python -m bot run` against the emulator, output kept in files."""

    def __init__(self, workdir: Path, emu: Emulator, db: Path, *, content: Path | None = None,
                 env: dict[str, str] | None = None, user: int | None = None,
                 preexec: Callable[[], None] | None = None) -> None:  # fmt: skip
        self.workdir, self.emu, self.db = workdir, emu, db
        self.content, self.extra_env, self.user, self.preexec = content, env or {}, user, preexec
        self.proc: subprocess.Popen[bytes] | None = None
        self.runs = 0

    @property
    def stderr_path(self) -> Path:
        return self.workdir / f"bot{self.runs}.err"

    def output(self) -> str:
        """Everything every run printed, stdout and stderr."""
        parts = []
        for run in range(1, self.runs + 1):
            for suffix in ("out", "err"):
                path = self.workdir / f"bot{run}.{suffix}"
                if path.exists():
                    parts.append(path.read_text("utf-8", "replace"))
        return "\n".join(parts)

    def start(self, *args: str) -> None:
        self.runs += 1
        env = {
            **os.environ, "BOT_TOKEN": TOKEN, "PTB_TIMEDELTA": "true", "PYTHONUNBUFFERED": "1",
            "QUIZBOT_LOG_LEVEL": "INFO",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            **self.extra_env,
        }  # fmt: skip
        cmd = [sys.executable, "-m", "bot", "run", "--api-base-url", self.emu.base_url,
               "--db", str(self.db), *args]  # fmt: skip
        if self.content is not None:
            cmd += ["--content", str(self.content)]
        with (
            open(self.workdir / f"bot{self.runs}.out", "wb") as out,
            open(self.stderr_path, "wb") as err,
        ):
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=out, stderr=err, user=self.user,
                preexec_fn=self.preexec,
            )  # fmt: skip

    async def ready(self, timeout: float = 20) -> None:
        """Wait until the bot polls (its start-up log line), failing early if it exits."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "quizbot is running" in self.stderr_path.read_text("utf-8", "replace"):
                return
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"the bot exited with {self.proc.returncode}:\n{self.output()}"
                )
            await asyncio.sleep(0.05)
        raise AssertionError(f"the bot did not start in {timeout}s:\n{self.output()}")

    async def exit_code(self, timeout: float = 20) -> int:
        assert self.proc is not None
        return await asyncio.to_thread(self.proc.wait, timeout)

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(self.proc.wait, 10)
            except subprocess.TimeoutExpired:
                self.kill9()
