"""What `quizbot bench scaling` measured, and its report: one `Result` per configuration and
round, the table of every figure, then each goal's ratio as the median of the rounds' (each
ratio is taken within one round: the machine's load moves a round's figures together).
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field


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
    # Behind the bridge: the burst's popups that rode on webhook responses (bot/webhook_replies.py)
    burst_replies: int | None = None

    @property
    def burst_cpu_per_1k(self) -> float:
        """CPU seconds (bots + server) per 1,000 answered burst taps."""
        return _per_1k(self.burst_cpu_bot + self.burst_cpu_db, self.burst_taps)

    @property
    def private_cpu_per_1k(self) -> float:
        return _per_1k(self.private_cpu_bot + self.private_cpu_db, self.private_taps)


def _per_1k(cpu: float, taps: int) -> float:
    return 1000 * cpu / taps if taps else float("nan")


def pg_label(workers: int, poll: bool = False) -> str:
    return f"PostgreSQL, {workers} worker(s)" + (", long polling" if poll else "")


SQLITE = "SQLite, 1 process"
SQLITE_WEBHOOK = "SQLite, 1 process, webhook"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b and a == a and b == b else "n/a"


def report(results: list[Result], args: argparse.Namespace) -> str:
    load = os.getloadavg()
    lines = [
        f"group burst: {args.members} taps, {args.concurrency} in flight"
        f"{' per PostgreSQL worker' if args.per_worker else ''}; private: "
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
    carried = [r for r in results if r.burst_replies is not None]
    if carried:
        lines += ["", "burst popups that rode on the webhook's responses (bot/webhook_replies.py):"]
        lines.append(", ".join(
            f"{r.label}{f' (round {r.round})' if args.repeat > 1 else ''} "
            f"{r.burst_replies}/{r.burst_taps}" for r in carried
        ))  # fmt: skip
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
                f"PG 2 workers / 1 worker ({how}"
                f"{', twice the load' if args.per_worker else ''}): "
                f"burst CPU per tap {ratios(two, one, cpu)} "
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
