"""`quizbot bench scaling`: the group burst and private taps on 1 and 2 workers on PostgreSQL,
and on one SQLite process for reference.

Each configuration gets a fresh database, an emulator without flood limits (this measures the
bot, not Telegram's pacing) and the same load, run closed-loop:

* *group burst*: M members tap question 1 of a group run, `concurrency` taps in flight at once;
  taps per second from the first tap to the last popup, and the popup latency percentiles;
* *private*: L learners, each answering its quiz question after question (tap, then Next), for
  `seconds`; answered taps per second.

The workers get updates either as Telegram would send them to a webhook (bot/bench/webhook.py's
`Bridge`), or by long polling (`--ingress`; one worker polls: bot/workers/poller.py): both by
default, each its own configuration. The SQLite process long-polls, and with the webhook
configurations it also runs behind the same `Bridge` (the webhook's own cost, like for like).
PostgreSQL is a throwaway server from the machine's binaries with its durable settings (fsync
on), as a deployment runs it.

Cost, not only speed (bot/bench/cpu_cost.py): each phase reads the CPU seconds of the bot
processes (the workers also serve the webhook front) and of the PostgreSQL server (postmaster,
backends, auxiliary processes) before and after, and reports them per 1,000 answered taps: on 2
shared cores that figure, not taps/s, says whether N workers on N cores would scale. The load
generator, the emulator and the webhook `Bridge` play Telegram and are not counted.
`--profile` also enables pg_stat_statements and prints, per PostgreSQL run, each statement's
calls per answered burst tap (the burst's taps only: round trips per tap do not move with the
machine's load, unlike taps/s) and the private phase's top statements.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from bot.bench import pacing_cost
from bot.bench.cpu_cost import CpuMeter, postmaster_pid, server_processes
from bot.bench.learners import percentile
from bot.bench.webhook import SECRET, Bridge, Workers, free_port
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
    burst_taps: int = 0
    burst_cpu_bot: float = 0.0  # CPU seconds of the bot processes during the burst
    burst_cpu_db: float = 0.0  # ... of the PostgreSQL server
    private_taps: int = 0
    private_cpu_bot: float = 0.0
    private_cpu_db: float = 0.0
    statements: list[str] = field(default_factory=list)  # --profile: the top statements
    burst_statements: list[str] = field(default_factory=list)  # --profile: calls per burst tap
    round: int = 0  # --repeat: which round (1, 2, ...)

    @property
    def burst_cpu_per_1k(self) -> float:
        """CPU seconds (bots + server) per 1,000 answered burst taps."""
        return _per_1k(self.burst_cpu_bot + self.burst_cpu_db, self.burst_taps)

    @property
    def private_cpu_per_1k(self) -> float:
        return _per_1k(self.private_cpu_bot + self.private_cpu_db, self.private_taps)


def _per_1k(cpu: float, taps: int) -> float:
    return 1000 * cpu / taps if taps else float("nan")


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


async def _burst(
    emu: Emulator,
    members: int,
    concurrency: int,
    before_taps: Callable[[], Awaitable[object]] | None = None,
) -> tuple[float, list[float]]:
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
    if before_taps is not None:  # --profile: count the taps' statements, not the set-up's
        await before_taps()
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


async def _private(emu: Emulator, learners: int, seconds: float) -> tuple[float, int]:
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
    return answered / (time.perf_counter() - t0), answered


async def _measure(
    label: str,
    emu: Emulator,
    args: argparse.Namespace,
    meter: CpuMeter,
    after_burst: Callable[[int], Awaitable[object]] | None = None,
    before_taps: Callable[[], Awaitable[object]] | None = None,
) -> Result:
    # The burst's cost is its taps': read once the question is posted, so the group's set-up
    # (the bot added, /push, the first question: a few updates, paid once) is not spread over
    # the taps, which made a short burst look dearer per tap on PostgreSQL (cold statements).
    start = meter.read()

    async def taps_begin() -> None:
        nonlocal start
        if before_taps is not None:
            await before_taps()
        start = meter.read()

    rate, lat = await _burst(emu, args.members, args.concurrency, taps_begin)
    bot0, db0 = start
    bot1, db1 = meter.read()
    if after_burst is not None:  # --profile: the burst's statements, before the private phase
        await after_burst(len(lat))
        bot1, db1 = meter.read()
    private, answered = await _private(emu, args.learners, args.seconds)
    bot2, db2 = meter.read()
    ms = [x * 1000 for x in lat] or [0.0]
    return Result(
        label, rate, percentile(ms, 50), percentile(ms, 99), private,
        burst_taps=len(lat), burst_cpu_bot=bot1 - bot0, burst_cpu_db=db1 - db0,
        private_taps=answered, private_cpu_bot=bot2 - bot1, private_cpu_db=db2 - db1,
    )  # fmt: skip


def pg_label(workers: int, poll: bool = False) -> str:
    return f"PostgreSQL, {workers} worker(s)" + (", long polling" if poll else "")


async def _postgres(
    cluster: Cluster, workers: int, args: argparse.Namespace, poll: bool = False
) -> Result:
    name = f"bench{workers}{'poll' if poll else ''}"
    conn = await asyncpg.connect(cluster.dsn())
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name}")
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    async with Emulator(token=TOKEN, flood=None) as emu:
        procs = Workers(emu, TOKEN, cluster.dsn(name), workers, seconds=600, poll=poll)
        procs.start()
        bridge = Bridge(emu, TOKEN, procs.port)
        try:
            await asyncio.wait_for(procs.ready(), 120)
            if not poll:  # else a worker asks the emulator itself, as the SQLite process does
                bridge.start()
            meter = CpuMeter([p.pid for p in procs.procs], postmaster_pid(cluster.datadir))
            if args.profile:
                await _reset_statements(cluster.dsn(name))
            kinds0 = server_processes(postmaster_pid(cluster.datadir))
            spy = _py_spy(args, procs.procs[0].pid, name.removeprefix("bench"))
            per_tap: list[str] = []

            async def after_burst(taps: int) -> None:
                per_tap.extend(await statements_per_tap(cluster.dsn(name), taps))

            try:
                result = await _measure(
                    pg_label(workers, poll),
                    emu,
                    args,
                    meter,
                    after_burst if args.profile else None,
                    functools.partial(_reset_statements, cluster.dsn(name))
                    if args.profile
                    else None,
                )
            finally:
                _stop_spy(spy)
            result.burst_statements = per_tap
            if args.profile:
                result.statements = await top_statements(cluster.dsn(name))
                kinds1 = server_processes(postmaster_pid(cluster.datadir))
                result.statements += ["", "server CPU s by process (live ones; the rest reaped):"]
                result.statements += [
                    f"- {kind}: {cpu - kinds0.get(kind, 0.0):.2f}"
                    for kind, cpu in sorted(kinds1.items(), key=lambda kv: -kv[1])
                ]
            return result
        finally:
            await bridge.stop()
            await asyncio.to_thread(procs.stop)  # they may still talk to the emulator


SQLITE = "SQLite, 1 process"
SQLITE_WEBHOOK = "SQLite, 1 process, webhook"


async def _sqlite(workdir: Path, args: argparse.Namespace, webhook: bool = False) -> Result:
    """One SQLite process, long-polling the emulator; or (`webhook`) taking the same requests
    from the same `Bridge` as the workers do, for a like-for-like webhook comparison."""
    port = free_port() if webhook else 0
    async with Emulator(token=TOKEN, flood=None) as emu:
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "bot.bench.botproc", "--kind", "quizbot",
                "--api-base-url", emu.base_url, "--token", TOKEN,
                "--db", str(workdir / "bench.sqlite3"), "--rate-limit",
                "--content", str(default_content_dir()),
                *(["--webhook-port", str(port), "--webhook-secret", SECRET] if webhook else []),
            ],
            stdout=subprocess.PIPE,
            env={**os.environ, "QUIZBOT_QUESTION_SECONDS": "600"},
        )  # fmt: skip
        bridge = Bridge(emu, TOKEN, port)
        try:
            assert proc.stdout is not None
            line = await asyncio.to_thread(proc.stdout.readline)
            if json.loads(line).get("event") != "ready":
                raise RuntimeError(f"the SQLite bot did not start: {line!r}")
            if webhook:
                bridge.start()
            spy = _py_spy(args, proc.pid, "sqlite-webhook" if webhook else "sqlite")
            try:
                label = SQLITE_WEBHOOK if webhook else SQLITE
                return await _measure(label, emu, args, CpuMeter([proc.pid]))
            finally:
                _stop_spy(spy)
        finally:
            await bridge.stop()
            proc.terminate()
            await asyncio.to_thread(proc.wait, 30)  # it may still talk to the emulator


async def run(args: argparse.Namespace) -> tuple[list[Result], list[str]]:
    """Every configuration `--repeat` times, in turn (SQLite, then each PostgreSQL one, then
    again): on 2 shared cores one run's CPU per tap moves by up to 1.7x from one run to the
    next (the closed loop's batches follow the load generator's pace), so ratios are taken
    within a round and their median reported."""
    results = []
    preload = ("pg_stat_statements",) if args.profile else ()
    cluster = Cluster(durable=True, preload=preload).start()
    try:
        for round_ in range(1, args.repeat + 1):
            with tempfile.TemporaryDirectory(prefix="quizbot-scaling-") as tmp:
                results.append(await _sqlite(Path(tmp), args))
            if args.ingress != "polling":  # the webhook's own cost, on one process too
                with tempfile.TemporaryDirectory(prefix="quizbot-scaling-") as tmp:
                    results.append(await _sqlite(Path(tmp), args, webhook=True))
            for poll in (False, True) if args.ingress == "both" else (args.ingress == "polling",):
                for workers in args.workers:
                    results.append(await _postgres(cluster, workers, args, poll))
            for r in results:
                r.round = r.round or round_
        pacing = [] if args.no_pacing else await pacing_cost.measure(cluster)
    finally:
        cluster.stop()
    return results, pacing


def _py_spy(args: argparse.Namespace, pid: int, label: str) -> subprocess.Popen[bytes] | None:
    """`--py-spy DIR`: py-spy samples the (first) bot process while the load runs, into
    DIR/<label>.txt as collapsed stacks (one line per stack, its sample count last)."""
    if args.py_spy is None:
        return None
    args.py_spy.mkdir(parents=True, exist_ok=True)
    out = args.py_spy / f"{label}.txt"
    cmd = ["py-spy", "record", "--nonblocking", "--format", "raw", "-r", "200"]
    return subprocess.Popen([*cmd, "-o", str(out), "-p", str(pid)], stdout=subprocess.DEVNULL)


def _stop_spy(spy: subprocess.Popen[bytes] | None) -> None:
    if spy is not None:
        spy.send_signal(signal.SIGINT)  # py-spy writes its file on Ctrl-C
        try:
            spy.wait(30)
        except subprocess.TimeoutExpired:
            spy.kill()


async def _reset_statements(dsn: str) -> None:
    """pg_stat_statements in this database, emptied: what follows is the measured load's."""
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        await conn.execute("SELECT pg_stat_statements_reset()")
    finally:
        await conn.close()


async def statements_per_tap(dsn: str, taps: int) -> list[str]:
    """Round trips per answered burst tap, by statement (pg_stat_statements since the last
    reset, which `_reset_statements` did just before the burst), then emptied for the private
    phase. Unlike taps/s, the count does not move with the machine's load."""
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            """SELECT calls, rows, total_exec_time, wal_bytes, query FROM pg_stat_statements
               WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                 AND query NOT LIKE '%pg_stat_statements%'
               ORDER BY calls DESC"""
        )
        await conn.execute("SELECT pg_stat_statements_reset()")
    finally:
        await conn.close()
    taps = max(1, taps)
    total = sum(r["calls"] for r in rows)
    lines = [
        f"{total / taps:.2f} statements per answered burst tap ({total} for {taps} taps):",
        "| calls / tap | calls | rows | executing µs / tap | WAL bytes / tap | statement |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["calls"] / taps < 0.01:
            continue
        text = " ".join(r["query"].split())
        text = text if len(text) <= 110 else text[:107] + "..."
        lines.append(
            f"| {r['calls'] / taps:.2f} | {r['calls']} | {r['rows']}"
            f" | {1000 * r['total_exec_time'] / taps:.0f} | {int(r['wal_bytes']) / taps:.0f}"
            f" | `{text}` |"
        )
    return lines


async def top_statements(dsn: str, limit: int = 10) -> list[str]:
    """The statements that took most of the server's time, then the most frequent (each a
    round trip, whose cost is mostly outside its execution time): calls, ms, rows, text."""
    return [
        *await _top(dsn, "total_exec_time", limit),
        "",
        *await _top(dsn, "calls", limit),
    ]


async def _top(dsn: str, order: str, limit: int) -> list[str]:
    assert order in ("total_exec_time", "calls")
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            """SELECT calls, total_exec_time, rows, query FROM pg_stat_statements
               WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
               ORDER BY """
            + order
            + " DESC LIMIT $1",
            limit,
        )
    finally:
        await conn.close()
    lines = ["| calls | total ms | ms/call | rows | statement |", "|---|---|---|---|---|"]
    for r in rows:
        text = " ".join(r["query"].split())
        text = text if len(text) <= 110 else text[:107] + "..."
        per = r["total_exec_time"] / r["calls"] if r["calls"] else 0.0
        lines.append(
            f"| {r['calls']} | {r['total_exec_time']:.0f} | {per:.2f} | {r['rows']} | `{text}` |"
        )
    return lines


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b and a == a and b == b else "n/a"


def report(results: list[Result], args: argparse.Namespace) -> str:
    load = os.getloadavg()
    lines = [
        f"group burst: {args.members} taps, {args.concurrency} in flight; private: "
        f"{args.learners} learners for {args.seconds:.0f} s; {os.cpu_count()} cores; "
        f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        "CPU s / 1k taps: bot processes (workers include the webhook front or the poller) + "
        "PostgreSQL server",
        "",
        "| configuration | burst taps/s | popup p50 ms | popup p99 ms | burst CPU s / 1k taps "
        "(bots + db) | private taps/s | private CPU s / 1k answers (bots + db) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.label}{f' (round {r.round})' if args.repeat > 1 else ''} | "
            f"{r.burst_taps_per_s:.0f} | {r.burst_p50_ms:.0f} | "
            f"{r.burst_p99_ms:.0f} | {r.burst_cpu_per_1k:.2f} "
            f"({1000 * r.burst_cpu_bot / max(1, r.burst_taps):.2f} + "
            f"{1000 * r.burst_cpu_db / max(1, r.burst_taps):.2f}) | "
            f"{r.private_taps_per_s:.1f} | {r.private_cpu_per_1k:.2f} "
            f"({1000 * r.private_cpu_bot / max(1, r.private_taps):.2f} + "
            f"{1000 * r.private_cpu_db / max(1, r.private_taps):.2f}) |"
        )
    rounds = sorted({r.round for r in results})
    by = {(r.label, r.round): r for r in results}

    def ratios(a: str, b: str, figure: Callable[[Result], float]) -> str:
        """a / b in each round, then their median: "1.42x (1.38, 1.42, 1.61)"."""
        each = [
            figure(by[a, n]) / figure(by[b, n])
            for n in rounds
            if (a, n) in by and (b, n) in by and figure(by[b, n])
        ]
        if not each:
            return "n/a"
        shown = f"{statistics.median(each):.2f}x"
        return shown + (f" ({', '.join(f'{x:.2f}' for x in each)})" if len(each) > 1 else "")

    def cpu(r: Result) -> float:
        return r.burst_cpu_per_1k

    def rate(r: Result) -> float:
        return r.burst_taps_per_s

    def p99(r: Result) -> float:
        return r.burst_p99_ms

    lines.append("")
    if len(rounds) > 1:
        lines.append(f"ratios: the median of the {len(rounds)} rounds' (each round's in brackets)")
    for poll, how in ((False, "webhook"), (True, "long polling")):
        one, two = pg_label(1, poll), pg_label(2, poll)
        pairs = [(SQLITE, "SQLite")] + ([] if poll else [(SQLITE_WEBHOOK, "SQLite by webhook")])
        for lite, name in pairs:
            if (lite, rounds[0]) in by and (one, rounds[0]) in by:
                lines.append(
                    f"PG 1 worker ({how}) / {name}: burst CPU per tap {ratios(one, lite, cpu)} "
                    f"(goal <= 1.5x), burst taps/s {ratios(one, lite, rate)} (goal >= 0.6x)"
                )
        if (one, rounds[0]) in by and (two, rounds[0]) in by:
            lines.append(
                f"PG 2 workers / 1 worker ({how}): burst CPU per tap {ratios(two, one, cpu)} "
                f"(goal <= 1.1x), popup p99 {ratios(two, one, p99)} (goal <= 1x), "
                f"burst taps/s {ratios(two, one, rate)}"
            )
    for r in results:
        if r.burst_statements:
            lines += ["", f"round trips of the burst, {r.label} (pg_stat_statements):"]
            lines += r.burst_statements
        if r.statements:
            lines += ["", f"top statements, {r.label} (pg_stat_statements, private phase):"]
            lines += r.statements
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="quizbot bench scaling", description=__doc__)
    p.add_argument("--members", type=int, default=400, help="taps in the group burst")
    p.add_argument("--concurrency", type=int, default=64, help="burst taps in flight at once")
    p.add_argument("--learners", type=int, default=20, help="private learners")
    p.add_argument("--seconds", type=float, default=15, help="seconds of private taps")
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts")
    p.add_argument(
        "--ingress",
        choices=("webhook", "polling", "both"),
        default="both",
        help="how the workers get updates: Telegram's webhook requests, or one of them "
        "long-polling as the SQLite process does (bot/workers/poller.py)",
    )
    p.add_argument(
        "--profile", action="store_true", help="pg_stat_statements' top statements per run"
    )
    p.add_argument("--py-spy", type=Path, help="sample the first bot process with py-spy here")
    p.add_argument("--no-pacing", action="store_true", help="skip the sending-budget table")
    p.add_argument(
        "--repeat", type=int, default=1, help="rounds of every configuration, ratios' median"
    )
    p.add_argument("--json", type=Path, help="also write every figure as JSON here")
    args = p.parse_args(argv)
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    try:
        results, pacing = asyncio.run(run(args))
    except NoPostgres as exc:
        print(f"quizbot bench scaling: {exc}", file=sys.stderr)
        return 1
    print(report(results, args))
    if pacing:
        print()
        print("\n".join(pacing))
    if args.json is not None:
        figures = [
            {**vars(r), "burst_cpu_per_1k": r.burst_cpu_per_1k,
             "private_cpu_per_1k": r.private_cpu_per_1k}
            for r in results
        ]  # fmt: skip
        args.json.write_text(json.dumps({"load": os.getloadavg(), "results": figures}, indent=1))
    return 0
