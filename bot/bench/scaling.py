"""`quizbot bench scaling`: the group burst and private taps on 1 and 2 workers on PostgreSQL,
and on one SQLite process for reference.

Each configuration gets a fresh database, an emulator without flood limits (this measures the
bot, not Telegram's pacing) and the same load, run closed-loop:

* *group burst*: M members tap question 1 of a group run, `concurrency` taps in flight at once;
  taps per second from the first tap to the last popup, and the popup latency percentiles;
* *private*: L learners, each answering its quiz question after question (tap, then Next), for
  `seconds`; answered taps per second.

The workers get updates as Telegram would send them to a webhook (bot/bench/webhook.py's
`Bridge`); the SQLite process long-polls the emulator itself. PostgreSQL is a throwaway server
from the machine's binaries with its durable settings (fsync on), as a deployment runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.bench import pacing_cost
from bot.bench.learners import percentile
from bot.bench.webhook import Bridge, Workers
from bot.content import default_content_dir
from bot.emulator import Emulator
from bot.emulator.driver import SimUser, TapTimeout
from bot.emulator.state import EmuMessage
from bot.store.pg.cluster import Cluster, NoPostgres

TOKEN = "123456:BENCH-scaling-token"
QUIZ = "gradient-accumulation"
LETTERS = "ABCD"


@dataclass
class Result:
    label: str
    burst_taps_per_s: float
    burst_p50_ms: float
    burst_p99_ms: float
    private_taps_per_s: float


def _letter(message: EmuMessage) -> str:
    """One of the question's own letters (a true/false question has only A and B)."""
    return random.choice([b.text for row in message.buttons for b in row if b.text in LETTERS])


def _has_buttons(message: EmuMessage) -> bool:
    return bool(message.buttons)


def _button(message: EmuMessage, text: str) -> str | None:
    return next((b.text for row in message.buttons for b in row if text in b.text), None)


async def _tap(user: SimUser, message: EmuMessage, text: str) -> bool:
    try:
        await user.tap(message, text, timeout=30)
    except TapTimeout:
        return False
    return True


async def _burst(emu: Emulator, members: int, concurrency: int) -> tuple[float, list[float]]:
    admin = emu.user(7000, "Admin", language_code="en")
    group = emu.group(-100777, "Bench group")
    group.add_member(admin, "creator")
    users = [emu.user(8000 + i, f"M{i}", language_code="en") for i in range(members)]
    for u in users:
        group.add_member(u, "member")
    await emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text, timeout=60)
    await admin.send(f"/push {QUIZ}", chat=group)
    question = await group.wait_for(lambda m: "Question 1/" in m.text, timeout=60)
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def one(user: SimUser) -> None:
        async with gate:
            t0 = time.perf_counter()
            if await _tap(user, question, _letter(question)):
                latencies.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    await asyncio.gather(*(one(u) for u in users))
    return len(latencies) / (time.perf_counter() - t0), latencies


async def _private(emu: Emulator, learners: int, seconds: float) -> float:
    answered = 0
    end = time.perf_counter() + seconds

    async def learner(i: int) -> None:
        nonlocal answered
        user = emu.user(9000 + i, f"L{i}", language_code="en")
        mark = user.private.mark()
        await user.send(f"/start {QUIZ}")
        while time.perf_counter() < end:
            # The next screen: a new question, or the answered question edited to carry Next.
            screen = await user.private.wait_for(_has_buttons, after=mark, timeout=60)
            mark = user.private.mark()
            if _button(screen, "A") == "A":
                answered += await _tap(user, screen, _letter(screen))
            elif (label := _button(screen, "Next")) is not None:
                await _tap(user, screen, label)
            else:  # the result: start again
                await user.send(f"/start {QUIZ}")

    t0 = time.perf_counter()
    with contextlib.suppress(TimeoutError):
        await asyncio.gather(*(learner(i) for i in range(learners)))
    return answered / (time.perf_counter() - t0)


async def _measure(label: str, emu: Emulator, args: argparse.Namespace) -> Result:
    rate, lat = await _burst(emu, args.members, args.concurrency)
    private = await _private(emu, args.learners, args.seconds)
    ms = [x * 1000 for x in lat] or [0.0]
    return Result(label, rate, percentile(ms, 50), percentile(ms, 99), private)


async def _postgres(cluster: Cluster, workers: int, args: argparse.Namespace) -> Result:
    name = f"bench{workers}"
    conn = await asyncpg.connect(cluster.dsn())
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name}")
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    async with Emulator(token=TOKEN, flood=None) as emu:
        procs = Workers(emu, TOKEN, cluster.dsn(name), workers, seconds=600)
        procs.start()
        bridge = Bridge(emu, TOKEN, procs.port)
        try:
            await asyncio.wait_for(procs.ready(), 120)
            bridge.start()
            return await _measure(f"PostgreSQL, {workers} worker(s)", emu, args)
        finally:
            await bridge.stop()
            await asyncio.to_thread(procs.stop)  # they may still talk to the emulator


async def _sqlite(workdir: Path, args: argparse.Namespace) -> Result:
    async with Emulator(token=TOKEN, flood=None) as emu:
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "bot.bench.botproc", "--kind", "quizbot",
                "--api-base-url", emu.base_url, "--token", TOKEN,
                "--db", str(workdir / "bench.sqlite3"), "--rate-limit",
                "--content", str(default_content_dir()),
            ],
            stdout=subprocess.PIPE,
            env={**os.environ, "QUIZBOT_QUESTION_SECONDS": "600"},
        )  # fmt: skip
        try:
            assert proc.stdout is not None
            line = await asyncio.to_thread(proc.stdout.readline)
            if json.loads(line).get("event") != "ready":
                raise RuntimeError(f"the SQLite bot did not start: {line!r}")
            return await _measure("SQLite, 1 process", emu, args)
        finally:
            proc.terminate()
            await asyncio.to_thread(proc.wait, 30)  # it may still talk to the emulator


async def run(args: argparse.Namespace) -> tuple[list[Result], list[str]]:
    results = []
    with tempfile.TemporaryDirectory(prefix="quizbot-scaling-") as tmp:
        results.append(await _sqlite(Path(tmp), args))
    cluster = Cluster(durable=True).start()
    try:
        for workers in args.workers:
            results.append(await _postgres(cluster, workers, args))
        pacing = await pacing_cost.measure(cluster)
    finally:
        cluster.stop()
    return results, pacing


def report(results: list[Result], args: argparse.Namespace) -> str:
    lines = [
        f"group burst: {args.members} taps, {args.concurrency} in flight; private: "
        f"{args.learners} learners for {args.seconds:.0f} s; {os.cpu_count()} cores",
        "",
        "| configuration | burst taps/s | popup p50 ms | popup p99 ms | private taps/s |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.label} | {r.burst_taps_per_s:.0f} | {r.burst_p50_ms:.0f} | "
            f"{r.burst_p99_ms:.0f} | {r.private_taps_per_s:.1f} |"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="quizbot bench scaling", description=__doc__)
    p.add_argument("--members", type=int, default=400, help="taps in the group burst")
    p.add_argument("--concurrency", type=int, default=64, help="burst taps in flight at once")
    p.add_argument("--learners", type=int, default=20, help="private learners")
    p.add_argument("--seconds", type=float, default=15, help="seconds of private taps")
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts")
    args = p.parse_args(argv)
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    try:
        results, pacing = asyncio.run(run(args))
    except NoPostgres as exc:
        print(f"quizbot bench scaling: {exc}", file=sys.stderr)
        return 1
    print(report(results, args))
    print()
    print("\n".join(pacing))
    return 0
