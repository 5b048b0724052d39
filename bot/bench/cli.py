"""The benchmark's command line: sizes as flags, phases in order, a report (and JSON) at the end."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from bot.bench import phases
from bot.bench.report import Report

T = TypeVar("T")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="quizbot bench", description=__doc__)
    p.add_argument("--users", type=int, default=50, help="simulated learners (default 50)")
    p.add_argument("--rate", type=float, default=100, help="paced taps per second (default 100)")
    p.add_argument("--duration", type=float, default=20, help="measured seconds per load run")
    p.add_argument(
        "--max-duration",
        type=float,
        default=10,
        help="measured seconds of each closed-loop (max throughput) run",
    )
    p.add_argument("--warmup", type=float, default=2, help="unmeasured seconds before each run")
    p.add_argument("--quizzes", type=int, default=500, help="generated quizzes for start-up")
    p.add_argument("--group-members", type=int, default=1000, help="members in the group burst")
    p.add_argument("--groups", type=int, default=500, help="groups in the fan-out")
    p.add_argument(
        "--paced-limiter",
        type=float,
        default=0,
        help="experiment: fan-out with the bot's limiter pacing sends and edits at this rate/s",
    )
    p.add_argument(
        "--limits-duration",
        type=float,
        default=10,
        help="seconds of the run under production limits (0 skips it)",
    )
    p.add_argument(
        "--bot-concurrency",
        type=int,
        default=0,
        help="concurrent updates / HTTP connections of both bots (default: quizbot's)",
    )
    p.add_argument(
        "--quizbot-transport",
        choices=("aiohttp", "httpx"),
        default="",
        help="quizbot's HTTP stack (default: its own, aiohttp; httpx is PTB's default)",
    )
    p.add_argument(
        "--uvloop",
        action="store_true",
        help="experiment: quizbot's process on uvloop (pip install uvloop; see BENCHMARKS.md)",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="tiny sizes (a few seconds per phase): a smoke run, not a measurement",
    )
    p.add_argument(
        "--only",
        default="",
        help="comma-separated phases: private,baseline,lean,max,limits,startup,emulator,"
        "burst,fanout (default: all)",
    )
    p.add_argument(
        "--api-latency",
        type=float,
        default=0,
        metavar="MS",
        help="group burst: every Bot API request answered MS ms late (Telegram's round trip)",
    )
    p.add_argument("--json", type=Path, help="also write every figure as JSON here")
    p.add_argument("--workdir", type=Path, help="keep databases here (default: a temp dir)")
    return p


def _quick(args: argparse.Namespace) -> None:
    args.users, args.rate = min(args.users, 5), min(args.rate, 20)
    args.duration = min(args.duration, 2)
    args.max_duration = min(args.max_duration, 2)
    args.warmup = min(args.warmup, 0.5)
    args.quizzes = min(args.quizzes, 10)
    args.group_members = min(args.group_members, 20)
    args.groups = min(args.groups, 5)
    args.limits_duration = min(args.limits_duration, 2)


async def run(args: argparse.Namespace, workdir: Path) -> Report:
    from bot.content import default_content_dir, load_catalog

    only = {s.strip() for s in args.only.split(",") if s.strip()}

    def wanted(name: str) -> bool:
        return not only or name in only

    content = default_content_dir().resolve()
    catalog = load_catalog(content)
    quizzes = {quiz.id: len(quiz) for quiz in catalog}
    report = Report(args=vars(args) | {"cpus": os.cpu_count()})
    load = {
        "users": args.users,
        "warmup": args.warmup,
        "content": content,
        "concurrency": args.bot_concurrency,
    }

    async def private(
        kind: str, rate: float | None, duration: float, limits: bool = False, transport: str = ""
    ) -> None:
        name = {"aiohttp": "lean baseline"}.get(transport, kind) if kind == "baseline" else kind
        print(
            f"… {name}: {f'paced {rate:g} taps/s' if rate else 'closed loop'}"
            f"{' under production limits' if limits else ''}, {duration:g} s",
            flush=True,
        )
        result = await _guard(
            report,
            f"{name} {rate or 'max'}",
            phases.private_load(
                kind,
                quizzes,
                workdir,
                rate=rate,
                duration=duration,
                limits=limits,
                transport=transport,
                uvloop=args.uvloop and kind == "quizbot",
                **load,
            ),
        )
        if result is not None:
            report.private.append(result)

    # Two baselines: the bare bot on stock PTB (httpx), and the same bot on quizbot's transport,
    # so the report separates what quizbot's logic costs from what the transport saves.
    quizbot_transport = args.quizbot_transport
    if wanted("private"):
        await private("quizbot", args.rate, args.duration, transport=quizbot_transport)
    if wanted("baseline"):
        await private("baseline", args.rate, args.duration, transport="httpx")
    if wanted("lean"):
        await private("baseline", args.rate, args.duration, transport="aiohttp")
    if wanted("max"):
        await private("quizbot", None, args.max_duration, transport=quizbot_transport)
        await private("baseline", None, args.max_duration, transport="httpx")
        await private("baseline", None, args.max_duration, transport="aiohttp")
    if wanted("limits") and args.limits_duration > 0:
        await private(
            "quizbot", None, args.limits_duration, limits=True, transport=quizbot_transport
        )
    if wanted("emulator"):
        print("… emulator alone, raw HTTP client", flush=True)
        report.emulator = await _guard(
            report, "emulator", phases.emulator_ceiling(seconds=1 if args.quick else 3)
        )
    if wanted("startup"):
        print(f"… start-up with {args.quizzes} generated quizzes", flush=True)
        report.startup = await _guard(
            report, "startup", phases.startup_with_generated(args.quizzes, workdir)
        )
    if wanted("burst") or wanted("fanout"):
        from bot.bench import groups

        if wanted("burst"):
            print(f"… group burst: {args.group_members} members, production limits", flush=True)
            report.burst = await _guard(
                report,
                "group burst",
                groups.burst(
                    args.group_members,
                    workdir,
                    content=content,
                    api_latency=args.api_latency / 1000,
                    concurrency=args.bot_concurrency,
                ),
            )
        if wanted("fanout"):
            print(
                f"… fan-out: {args.groups} groups due at the same minute, production limits",
                flush=True,
            )
            report.fanout = await _guard(
                report,
                "fan-out",
                groups.fanout(
                    args.groups, workdir, content=content, paced_limiter=args.paced_limiter
                ),
            )
    return report


async def _guard(report: Report, name: str, phase: Coroutine[Any, Any, T]) -> T | None:
    """A phase that fails is reported as a problem; the other phases still run and print."""
    try:
        return await phase
    except Exception as exc:
        report.failures.append(f"{name}: {type(exc).__name__}: {exc}")
        return None


def main(argv: list[str] | None = None) -> int:
    if argv and argv[0] == "scaling":  # 1 vs 2 workers on PostgreSQL (bot/bench/scaling.py)
        from bot.bench.scaling import main as scaling

        return scaling(argv[1:])
    args = parser().parse_args(argv)
    if args.quick:
        _quick(args)
    logging.basicConfig(level=logging.WARNING, format="bench: %(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        report = asyncio.run(run(args, workdir))
    report.wall = time.perf_counter() - began
    print()
    print(report.text())
    if args.json:
        args.json.write_text(json.dumps(report.as_dict(), indent=2, default=_plain) + "\n")
    return 0 if report.ok() else 1


def _plain(value: Any) -> Any:
    return str(value)


if __name__ == "__main__":
    sys.exit(main())
