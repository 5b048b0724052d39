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
import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

from bot.bench import pacing_cost, scaling_load
from bot.bench.cpu_cost import CpuMeter, postmaster_pid, server_processes
from bot.bench.learners import percentile
from bot.bench.pg_statements import reset_statements, statements_per_tap, top_statements
from bot.bench.scaling_report import SQLITE, SQLITE_WEBHOOK, Result, pg_label, report
from bot.bench.webhook import SECRET, Bridge, Workers, free_port
from bot.content import default_content_dir
from bot.emulator import Emulator
from bot.store.pg.cluster import Cluster, NoPostgres

TOKEN = "123456:BENCH-scaling-token"


async def _measure(
    label: str,
    emu: Emulator,
    args: argparse.Namespace,
    meter: CpuMeter,
    after_burst: Callable[[int], Awaitable[object]] | None = None,
    before_taps: Callable[[], Awaitable[object]] | None = None,
    bridge: Bridge | None = None,
    concurrency: int | None = None,
) -> Result:
    # The burst's cost is its taps': read once the question is posted, so the group's set-up
    # (the bot added, /push, the first question: a few updates, paid once) is not spread over
    # the taps, which made a short burst look dearer per tap on PostgreSQL (cold statements).
    start = meter.read()
    replied = 0

    async def taps_begin() -> None:
        nonlocal start, replied
        if before_taps is not None:
            await before_taps()
        start = meter.read()
        replied = bridge.replies if bridge is not None else 0

    in_flight = concurrency or args.concurrency
    rate, lat = await scaling_load.burst(emu, args.members, in_flight, taps_begin)
    bot0, db0 = start
    bot1, db1 = meter.read()
    if bridge is not None:
        replied = bridge.replies - replied
    if after_burst is not None:  # --profile: the burst's statements, before the private phase
        await after_burst(len(lat))
        bot1, db1 = meter.read()
    private, answered = await scaling_load.private(emu, args.learners, args.seconds)
    bot2, db2 = meter.read()
    ms = [x * 1000 for x in lat] or [0.0]
    return Result(
        label, rate, percentile(ms, 50), percentile(ms, 99), private,
        burst_taps=len(lat), burst_cpu_bot=bot1 - bot0, burst_cpu_db=db1 - db0,
        private_taps=answered, private_cpu_bot=bot2 - bot1, private_cpu_db=db2 - db1,
        burst_replies=replied if bridge is not None else None,
    )  # fmt: skip


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
        # --per-worker: N workers carry N times the load, through as many more of Telegram's
        # connections as a deployment of N workers would ask for (setWebhook's max_connections).
        load = workers if args.per_worker else 1
        bridge = Bridge(emu, TOKEN, procs.port, max_connections=min(100, 40 * load))
        try:
            await asyncio.wait_for(procs.ready(), 120)
            if not poll:  # else a worker asks the emulator itself, as the SQLite process does
                bridge.start()
            meter = CpuMeter([p.pid for p in procs.procs], postmaster_pid(cluster.datadir))
            if args.profile:
                await reset_statements(cluster.dsn(name))
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
                    functools.partial(reset_statements, cluster.dsn(name))
                    if args.profile
                    else None,
                    None if poll else bridge,
                    args.concurrency * load,
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
                return await _measure(
                    label, emu, args, CpuMeter([proc.pid]), bridge=bridge if webhook else None
                )
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


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="quizbot bench scaling", description=__doc__)
    p.add_argument("--members", type=int, default=400, help="taps in the group burst")
    p.add_argument("--concurrency", type=int, default=64, help="burst taps in flight at once")
    p.add_argument("--learners", type=int, default=20, help="private learners")
    p.add_argument("--seconds", type=float, default=15, help="seconds of private taps")
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts")
    p.add_argument(
        "--per-worker",
        action="store_true",
        help="N workers get N x --concurrency taps in flight (and 40 x N webhook connections, "
        "at most 100): the load grows with the workers, as a deployment adds workers for load",
    )
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
