"""The bot under test runs in its own process; its CPU time and peak RSS are read from /proc."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a live process (fields 14 and 15 of /proc/<pid>/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def peak_rss_mb(pid: int) -> float:
    """VmHWM: the process's peak resident set size so far."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class BotProcess:
    """`python -m bot.bench.botproc` started against an emulator; stop() reaps it."""

    kind: str
    base_url: str
    token: str
    db: Path | None = None
    content: Path | None = None
    rate_limit: bool = False
    concurrency: int = 0  # 0: the bot's own default
    paced_limiter: float = 0  # experiment: AIORateLimiter without burst at this rate (0: off)
    transport: str = ""  # "aiohttp" or "httpx"; "": the bot's default (see botproc --transport)
    uvloop: bool = False  # experiment: the bot process on uvloop's event loop
    ready: dict[str, Any] = field(default_factory=dict)
    peak_rss: float = 0.0
    cpu_total: float = 0.0
    _proc: subprocess.Popen[str] | None = None

    @property
    def pid(self) -> int:
        assert self._proc is not None
        return self._proc.pid

    async def start(self, timeout: float = 60.0) -> dict[str, Any]:
        cmd = [
            sys.executable,
            "-m",
            "bot.bench.botproc",
            "--kind",
            self.kind,
            "--api-base-url",
            self.base_url,
            "--token",
            self.token,
        ]
        if self.db is not None:
            cmd += ["--db", str(self.db)]
        if self.content is not None:
            cmd += ["--content", str(self.content)]
        if self.rate_limit:
            cmd.append("--rate-limit")
        if self.concurrency:
            cmd += ["--concurrency", str(self.concurrency)]
        if self.paced_limiter:
            cmd += ["--paced-limiter", str(self.paced_limiter)]
        if self.transport:
            cmd += ["--transport", self.transport]
        if self.uvloop:
            cmd.append("--uvloop")
        env = dict(os.environ, PTB_TIMEDELTA="true", PYTHONUNBUFFERED="1")
        self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
        line = await asyncio.wait_for(self._line(), timeout)
        self.ready = json.loads(line)
        if self.ready.get("event") != "ready":
            raise RuntimeError(f"bot process said {line!r}")
        return self.ready

    async def _line(self) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        line = await asyncio.to_thread(self._proc.stdout.readline)
        if not line:
            raise RuntimeError(f"the {self.kind} bot process exited during start-up")
        return line

    def cpu(self) -> float:
        return cpu_seconds(self.pid)

    async def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM (the bot closes its database), wait, and keep its peak RSS and CPU time."""
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(OSError):
            self.peak_rss = peak_rss_mb(proc.pid)
            self.cpu_total = cpu_seconds(proc.pid)
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(asyncio.to_thread(proc.wait), timeout)
        except TimeoutError:
            proc.kill()
            await asyncio.to_thread(proc.wait)
        if proc.stdout is not None:
            proc.stdout.close()
        self._proc = None
