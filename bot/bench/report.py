"""The figures of one run as a text table (and a dict for --json), and the correctness checks."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bot.bench.phases import EmulatorCeiling, PrivateResult, StartupResult

GLOBAL_PER_SECOND = 30  # Telegram's messages per second per bot (FloodLimits' default)


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
    failures: list[str] = field(default_factory=list)  # phases that could not run
    wall: float = 0.0

    # -- checks ----------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """What the run counted wrongly; speed is never a problem here."""
        found = list(self.failures)
        for r in self.private:
            t, name = r.tally, f"{r.name} {r.mode}"
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
                label = f"{r.name}, {r.mode}" + (", prod. limits" if r.db.get("limits") else "")
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
                f"{s.peak_rss_mb:.0f} MB; restart (checks cached): load_catalog "
                f"{s.restart_load_catalog:.2f} s, → first getUpdates {s.restart_to_polling:.2f} s"
            )
        if self.burst:
            b = self.burst
            p = b["popup_ms"]
            out.append(
                f"group burst, {b['members']} members tapping within {b['spread_s']:g} s "
                f"(production limits{_latency(b)}): "
                f"taps answered {b['taps_answered']}/{b['taps_sent']}, "
                f"all answered {b['all_answered_after_s']:.1f} s after the first tap; tap → popup "
                f"p50/p95/p99 {p[50]:.0f}/{p[95]:.0f}/{p[99]:.0f} ms; recorded {b['recorded']} "
                f"({b['recorded_distinct_members']} members, once each); reveal counts "
                f"{b['reveal_counts']} = DB {b['db_counts']}: "
                f"{'yes' if b['counts_match'] else 'NO'}; bot CPU {b['bot_cpu_s']:.1f} s, "
                f"{b['flood_errors']} × 429"
            )
        if self.fanout:
            f = self.fanout
            fraction = f["fraction_of_fastest"]
            out.append(
                f"fan-out, {f['groups']} groups due at the same minute ({f['limiter']} limiter, "
                f"{f['trigger']}): {f['groups_with_first_question']}/{f['groups']} groups got "
                f"question 1, the first after {f['first_question_after_s']:.2f} s, all after "
                f"{f['all_first_questions_after_s']:.1f} s; fastest Telegram allows "
                f"{f['messages_needed']} messages / {GLOBAL_PER_SECOND} per s = "
                f"{f['fastest_s']:.1f} s → {fraction if fraction is not None else '—'} of it; "
                f"{f['flood_errors']} × 429 from the emulator; "
                f"{f['group_messages_until_last_first_question']} group messages sent meanwhile"
            )
        problems = self.problems()
        out.append("")
        out.append(
            "counts check: " + ("OK" if not problems else "FAILED\n  " + "\n  ".join(problems))
        )
        return "\n".join(out)

    def _ratios(self) -> list[str]:
        """quizbot against each baseline: stock PTB (what users compare with) and the same bare
        bot on quizbot's transport (what quizbot's own logic costs)."""
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
            for base in ("baseline", "lean baseline"):
                b = next(
                    (r for r in self.private if r.name == base and r.mode.startswith(mode)), None
                )
                if q and b and b.answers_per_s:
                    lines.append(
                        f"{q.name} / {base} ({mode}): "
                        f"throughput {q.answers_per_s / b.answers_per_s:.2f}"
                        f", CPU per answer {q.cpu_per_1000 / max(b.cpu_per_1000, 1e-9):.2f}"
                        f", p99 popup {q.ms('popup', 99) / max(b.ms('popup', 99), 1e-9):.2f}"
                        ", p99 next screen "
                        f"{q.ms('screen', 99) / max(b.ms('screen', 99), 1e-9):.2f}"
                    )
        return lines + ([""] if lines else [])

    def as_dict(self) -> dict[str, Any]:
        private = []
        for r in self.private:
            private.append(
                {
                    "kind": r.kind,
                    "name": r.name,
                    "transport": r.transport,
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
            "problems": self.problems(),
        }


def _latency(burst: dict[str, Any]) -> str:
    """The Bot API round trip the burst ran with (`--api-latency`), if any, for its line."""
    ms = burst.get("api_latency_ms", 0)
    return f", Bot API round trip {ms:g} ms" if ms else ""
