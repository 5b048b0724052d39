"""The figures of one run as a text table (and a dict for --json), and the correctness checks."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bot.bench.phases import EmulatorCeiling, PrivateResult, StartupResult


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


@dataclass
class Report:
    args: dict[str, Any]
    private: list[PrivateResult] = field(default_factory=list)
    emulator: EmulatorCeiling | None = None
    startup: StartupResult | None = None
    burst: dict[str, Any] | None = None
    fanout: dict[str, Any] | None = None
    groups_note: str = ""
    failures: list[str] = field(default_factory=list)  # phases that could not run
    wall: float = 0.0

    # -- checks ----------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """What the run counted wrongly; speed is never a problem here."""
        found = list(self.failures)
        for r in self.private:
            t, name = r.tally, f"{r.kind} {r.mode}"
            if t.answered != t.taps:
                found.append(f"{name}: {t.taps - t.answered} taps never answered")
            if t.errors:
                found.append(f"{name}: {t.errors} screens or popups never came")
            if r.kind == "quizbot" and r.db:
                if r.db["answers"] != t.accepted:
                    found.append(f"{name}: {t.accepted} answers accepted, {r.db['answers']} in DB")
                if r.db["distinct"] != r.db["answers"]:
                    found.append(f"{name}: duplicate answers in the DB")
            for series in ("popup", "screen"):
                p = [r.ms(series, q) for q in (50, 95, 99)]
                if p != sorted(p):
                    found.append(f"{name}: {series} percentiles out of order {p}")
        for part in (self.burst, self.fanout):
            if part:
                found += part.get("problems", [])
        return found

    def ok(self) -> bool:
        return not self.problems()

    # -- output ----------------------------------------------------------------------------

    def text(self) -> str:
        out = [f"quizbot bench — {self.args['cpus']} CPUs, {self.wall:.0f} s wall", ""]
        if self.private:
            out += [
                _row(
                    [
                        "run",
                        "answers/s",
                        "taps/s",
                        "popup p50/p95/p99 ms",
                        "next screen p50/p95/p99 ms",
                        "CPU s/1k answers",
                        "peak RSS MB",
                        "emulator CPU share",
                        "429s",
                    ]
                ),
                _row(["---"] * 9),
            ]
            for r in self.private:
                label = f"{r.kind}, {r.mode}" + (", prod. limits" if r.db.get("limits") else "")
                out.append(
                    _row(
                        [
                            label,
                            f"{r.answers_per_s:.1f}",
                            f"{r.taps_per_s:.1f}",
                            "/".join(f"{r.ms('popup', p):.1f}" for p in (50, 95, 99)),
                            "/".join(f"{r.ms('screen', p):.1f}" for p in (50, 95, 99)),
                            f"{r.cpu_per_1000:.2f}",
                            f"{r.peak_rss_mb:.0f}",
                            f"{r.emu_cpu / r.duration:.2f}",
                            str(r.flood_errors),
                        ]
                    )
                )
            out.append("")
            out += self._ratios()
        for r in self.private:
            if r.kind == "quizbot" and r.db:
                d = r.db
                extra = (
                    f", answers table + index {d['answer_table_bytes_per_answer']:.0f} B/answer"
                    if d.get("answer_table_bytes_per_answer")
                    else ""
                )
                out.append(
                    f"DB ({r.mode}): {d['answers']} answers stored = {r.tally.accepted} "
                    f"accepted; {d['file_bytes']} bytes incl. WAL after checkpoint = "
                    f"{d['bytes_per_answer']:.0f} B/answer{extra}"
                )
        if self.emulator:
            e = self.emulator
            out.append(
                f"emulator alone: {e.requests_per_s:.0f} sendMessage/s to a raw HTTP "
                f"client in another process (emulator CPU share {e.emu_cpu_share:.2f})"
            )
        if self.startup:
            s = self.startup
            out.append(
                f"start-up, {s.quizzes} quizzes: load_catalog {s.load_catalog:.2f} s + "
                f"QuizBot start {s.start:.2f} s; load_catalog → first getUpdates "
                f"{s.to_polling:.2f} s (imports before that {s.imports:.2f} s); peak RSS "
                f"{s.peak_rss_mb:.0f} MB"
            )
        if self.groups_note:
            out.append(f"group burst, fan-out: {self.groups_note}")
        for name, part in (("group burst", self.burst), ("fan-out", self.fanout)):
            if part:
                out.append(
                    f"{name}: " + ", ".join(f"{k}={v}" for k, v in part.items() if k != "problems")
                )
        problems = self.problems()
        out.append("")
        out.append(
            "counts check: " + ("OK" if not problems else "FAILED\n  " + "\n  ".join(problems))
        )
        return "\n".join(out)

    def _ratios(self) -> list[str]:
        lines = []
        for mode in ("paced", "max"):
            q = next(
                (
                    r
                    for r in self.private
                    if r.kind == "quizbot" and r.mode.startswith(mode) and not r.db.get("limits")
                ),
                None,
            )
            b = next(
                (r for r in self.private if r.kind == "baseline" and r.mode.startswith(mode)), None
            )
            if q and b and b.answers_per_s:
                lines.append(
                    f"quizbot / baseline ({mode}): "
                    f"throughput {q.answers_per_s / b.answers_per_s:.2f}"
                    f", p99 popup {q.ms('popup', 99) / max(b.ms('popup', 99), 1e-9):.2f}"
                    f", p99 next screen {q.ms('screen', 99) / max(b.ms('screen', 99), 1e-9):.2f}"
                )
        return lines + ([""] if lines else [])

    def as_dict(self) -> dict[str, Any]:
        private = []
        for r in self.private:
            private.append(
                {
                    "kind": r.kind,
                    "mode": r.mode,
                    "duration": r.duration,
                    "answers_per_s": r.answers_per_s,
                    "taps_per_s": r.taps_per_s,
                    "popup_ms": {p: r.ms("popup", p) for p in (50, 95, 99)},
                    "screen_ms": {p: r.ms("screen", p) for p in (50, 95, 99)},
                    "question_ms": {p: r.ms("question", p) for p in (50, 95, 99)},
                    "cpu_per_1000": r.cpu_per_1000,
                    "bot_cpu": r.bot_cpu,
                    "emu_cpu": r.emu_cpu,
                    "peak_rss_mb": r.peak_rss_mb,
                    "requests": r.requests,
                    "flood_errors": r.flood_errors,
                    "db": r.db,
                    "tally": {k: v for k, v in asdict(r.tally).items() if not isinstance(v, list)},
                }
            )
        return {
            "args": self.args,
            "wall": self.wall,
            "private": private,
            "emulator": asdict(self.emulator) if self.emulator else None,
            "startup": asdict(self.startup) if self.startup else None,
            "burst": self.burst,
            "fanout": self.fanout,
            "groups_note": self.groups_note,
            "problems": self.problems(),
        }
