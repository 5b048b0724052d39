"""One benchmark phase each: private load (quizbot or baseline), start-up, database size.

Every phase starts its own emulator (in this process, with the load generator) and its own bot
process, so the bot's CPU is its own and nothing it does is hidden by the generator's work.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.bench.learners import Tally, drive, percentile
from bot.bench.procs import BotProcess, own_cpu_seconds
from bot.emulator import Emulator, FloodLimits

TOKEN = "424242:BENCH-token-not-secret"


@dataclass
class PrivateResult:
    kind: str
    mode: str  # "paced" or "max"
    duration: float
    tally: Tally
    bot_cpu: float  # CPU seconds of the bot process inside the window
    emu_cpu: float  # CPU seconds of this process (emulator + generator) inside the window
    peak_rss_mb: float
    requests: int  # requests the emulator served inside the window
    flood_errors: int
    db: dict[str, Any] = field(default_factory=dict)
    transport: str = ""  # "": the bot's default (quizbot: aiohttp, baseline: PTB's httpx)

    @property
    def name(self) -> str:
        """quizbot, baseline (stock PTB) or lean baseline (the same bare bot on our transport)."""
        if self.kind == "baseline":
            return "lean baseline" if self.transport == "aiohttp" else "baseline"
        return "quizbot" + (" on httpx" if self.transport == "httpx" else "")

    @property
    def answers_per_s(self) -> float:
        return self.tally.window_accepted / self.duration

    @property
    def taps_per_s(self) -> float:
        return self.tally.window_taps / self.duration

    @property
    def cpu_per_1000(self) -> float:
        return 1000 * self.bot_cpu / max(1, self.tally.window_accepted)

    def ms(self, series: str, p: float) -> float:
        return 1000 * percentile(getattr(self.tally, series), p)


def db_figures(path: Path) -> dict[str, Any]:
    """Answers stored, duplicates, and bytes per answer (file plus WAL, after a checkpoint)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        answers = conn.execute("SELECT count(*) FROM answers").fetchone()[0]
        distinct = conn.execute(
            "SELECT count(*) FROM"
            " (SELECT DISTINCT attempt_id, question_index, user_id FROM answers)"
        ).fetchone()[0]
        attempts = conn.execute("SELECT count(*) FROM attempts").fetchone()[0]
        answers_bytes = None
        with contextlib.suppress(sqlite3.OperationalError):  # SQLite built without dbstat
            answers_bytes = conn.execute(
                "SELECT sum(pgsize) FROM dbstat WHERE name IN ('answers', 'answers_by_user')"
            ).fetchone()[0]
    finally:
        conn.close()
    wal = path.with_name(path.name + "-wal")
    size = path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    return {
        "answers": answers,
        "distinct": distinct,
        "attempts": attempts,
        "file_bytes": size,
        "bytes_per_answer": size / answers if answers else 0.0,
        "answer_table_bytes_per_answer": (answers_bytes / answers)
        if answers and answers_bytes
        else None,
    }


async def private_load(
    kind: str,
    quizzes: dict[str, int],
    workdir: Path,
    *,
    users: int,
    rate: float | None,
    duration: float,
    warmup: float,
    content: Path,
    limits: bool = False,
    concurrency: int = 0,
    transport: str = "",
    uvloop: bool = False,
) -> PrivateResult:
    """`limits`: Telegram's flood limits in the emulator and the production limiter in the bot.
    `transport`: "aiohttp" or "httpx"; "" is the bot's default."""
    mode = f"paced {rate:g}/s" if rate else "max"
    db = workdir / (
        f"{kind}{'-' + transport if transport else ''}-{'paced' if rate else 'max'}"
        f"{'-limits' if limits else ''}.sqlite3"
    )
    async with Emulator(token=TOKEN, flood=FloodLimits() if limits else None) as emu:
        proc = BotProcess(
            kind,
            emu.base_url,
            TOKEN,
            db=db,
            content=content,
            rate_limit=limits,
            concurrency=concurrency,
            transport=transport,
            uvloop=uvloop,
        )
        await proc.start()
        marks: list[tuple[float, float, int, int]] = []

        def probe() -> None:
            stats = emu.stats
            marks.append(
                (proc.cpu(), own_cpu_seconds(), sum(stats.requests.values()), stats.flood_errors)
            )

        try:
            tally = await drive(
                emu, quizzes, users=users, rate=rate, warmup=warmup, duration=duration, probe=probe
            )
        finally:
            await proc.stop()
    (c0, e0, r0, f0), (c1, e1, r1, f1) = marks
    result = PrivateResult(
        kind,
        mode,
        duration,
        tally,
        c1 - c0,
        e1 - e0,
        proc.peak_rss,
        r1 - r0,
        f1 - f0,
        transport=transport,
    )
    if kind == "quizbot":
        result.db = db_figures(db) | {"limits": limits}
    return result


@dataclass
class StartupResult:
    quizzes: int
    imports: float
    load_catalog: float
    start: float  # QuizBot() + start() until polling was started
    to_polling: float  # load_catalog start -> the emulator saw the first getUpdates
    peak_rss_mb: float
    # A restart on the same database and content: the checks' cached clean result is used.
    restart_load_catalog: float = float("nan")
    restart_to_polling: float = float("nan")


async def startup(content: Path, quizzes: int, workdir: Path) -> StartupResult:
    async with Emulator(token=TOKEN, flood=None) as emu:
        proc = BotProcess(
            "quizbot", emu.base_url, TOKEN, db=workdir / "startup.sqlite3", content=content
        )
        ready = await proc.start(timeout=300)
        deadline = time.time() + 10
        while (first_poll := _first(emu, "getUpdates")) is None and time.time() < deadline:
            await asyncio.sleep(0.01)
        await proc.stop()
    return StartupResult(
        quizzes,
        ready["imports"],
        ready["load_catalog"],
        ready["start"],
        (first_poll or float("nan")) - ready["t_begin"],
        proc.peak_rss,
    )


def _first(emu: Emulator, method: str) -> float | None:
    return next((r.time for r in emu.requests if r.method == method), None)


async def startup_with_generated(quizzes: int, workdir: Path) -> StartupResult:
    from bot.bench.content_gen import generate

    content = generate(workdir / "generated-content", quizzes)
    first = await startup(content, quizzes, workdir)
    again = await startup(content, quizzes, workdir)
    first.restart_load_catalog = again.load_catalog
    first.restart_to_polling = again.to_polling
    return first


@dataclass
class EmulatorCeiling:
    requests_per_s: float  # sendMessage answered per second to a raw client in another process
    emu_cpu_share: float  # this process's CPU seconds per wall second meanwhile


async def emulator_ceiling(seconds: float = 3.0, concurrency: int = 32) -> EmulatorCeiling:
    """How many requests a second the emulator serves when nothing but HTTP is asked of it."""
    async with Emulator(token=TOKEN, flood=None) as emu:
        await emu.user(1, "Raw").send("/start")  # a user who never wrote to the bot gets 403s
        cpu0, t0 = own_cpu_seconds(), time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.bench.rawclient",
            f"{emu.base_url}{TOKEN}",
            "1",
            str(seconds),
            str(concurrency),
            stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await proc.communicate()
        share = (own_cpu_seconds() - cpu0) / (time.perf_counter() - t0)
    return EmulatorCeiling(json.loads(out)["requests_per_s"], share)
