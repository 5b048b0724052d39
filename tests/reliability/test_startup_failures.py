"""`quizbot run` with a database or content it cannot use: a clear message naming the problem,
a non-zero exit, and never a half-running bot (it must not have polled for updates).

The cases run as concurrent subprocesses, each against the same emulator, to keep this quick.
Simulations: an unwritable file or folder is a mode the bot's user cannot write (run as root,
the bot process first drops the capabilities that let root ignore modes); a full disk is
RLIMIT_FSIZE, which makes every write past 16 KiB fail (EFBIG) where ENOSPC would, with no tmpfs,
mount or root needed.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import resource
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.emulator import Emulator
from tests.content.hostile import HOSTILE, HOSTILE_FILE, hostile_content
from tests.e2e.harness import TOKEN
from tests.reliability.support import ROOT, BotProcess, content_copy, free_port

PR_CAPBSET_DROP = 24
DAC_CAPABILITIES = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER


def _memory_bound() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _tiny_disk() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))


def _modes_apply() -> None:
    """In the child before exec: without these capabilities even root obeys file modes."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in DAC_CAPABILITIES:
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@dataclass
class Case:
    name: str
    expect: tuple[str, ...]  # words the message must contain (any of them)
    db: Path
    content: Path | None = None
    preexec: Callable[[], None] | None = None
    proc: BotProcess | None = field(default=None, repr=False)


def cases(tmp: Path) -> list[Case]:
    out: list[Case] = []

    garbage = tmp / "garbage.sqlite3"
    garbage.write_bytes(os.urandom(8192))
    out.append(Case("not a database", ("not a database", "malformed"), garbage))

    damaged = tmp / "damaged.sqlite3"
    with sqlite3.connect(damaged) as conn:
        conn.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)")
        conn.executemany("INSERT INTO t (b) VALUES (?)", [("x" * 200,)] * 200)
    conn.close()
    with open(damaged, "r+b") as f:  # trash the table's pages, keep the header
        f.seek(4096)
        f.write(os.urandom(4096 * 3))
    out.append(Case("damaged pages", ("malformed", "integrity", "corrupt"), damaged))

    newer = tmp / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 999")
    conn.close()
    out.append(Case("schema from a newer quizbot", ("newer",), newer))

    readonly = tmp / "readonly.sqlite3"
    with sqlite3.connect(readonly) as conn:
        conn.execute("CREATE TABLE t (a)")
    conn.close()
    readonly.chmod(0o444)
    out.append(Case("unwritable file", ("writable", "readonly", "read-only", "permission"),
                    readonly, preexec=_modes_apply))  # fmt: skip
    locked = tmp / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    out.append(Case("unwritable folder", ("permission",), locked / "quizbot.sqlite3",
                    preexec=_modes_apply))  # fmt: skip
    out.append(Case("full disk", ("disk", "full", "i/o"), tmp / "full" / "quizbot.sqlite3",
                    preexec=_tiny_disk))  # fmt: skip

    broken = content_copy(tmp / "broken-content")
    (broken / "quizzes" / "gradient-accumulation.yaml").write_text(
        "id: gradient-accumulation\nquestions: [unclosed\n", "utf-8"
    )
    out.append(Case("broken content file", ("gradient-accumulation.yaml",),
                    tmp / "ok.sqlite3", content=broken))  # fmt: skip
    for i, (name, text) in enumerate(sorted(HOSTILE.items())):
        # Under a memory bound: a billion laughs once took gigabytes and never finished.
        hostile = hostile_content(tmp / f"hostile{i}", text)
        out.append(Case(f"hostile content: {name}", (HOSTILE_FILE,), tmp / f"h{i}.sqlite3",
                        content=hostile, preexec=_memory_bound))  # fmt: skip
    return out


async def test_unusable_database_or_content_stops_start_up(tmp_path: Path) -> None:
    async with Emulator(token=TOKEN, flood=None) as emu:
        table = cases(tmp_path)
        for i, case in enumerate(table):
            work = tmp_path / f"run{i}"
            work.mkdir()
            case.proc = BotProcess(work, emu, case.db, content=case.content, preexec=case.preexec)
            case.proc.start()
        # A hang guard, not a timing goal: a dozen interpreters start at once on two cores,
        # beside the suite's other workers (20 s was once not enough in CI).
        codes = await asyncio.gather(*(c.proc.exit_code(90) for c in table if c.proc))
        problems = []
        for case, code in zip(table, codes, strict=True):
            assert case.proc is not None
            output = case.proc.output()
            lowered = output.lower()
            if code == 0:
                problems.append(f"{case.name}: exit code 0")
            if "cannot start" not in lowered or not any(w in lowered for w in case.expect):
                problems.append(f"{case.name}: unclear message:\n{output}")
            if "traceback" in lowered or TOKEN in output:
                problems.append(f"{case.name}: traceback or token shown:\n{output}")
        assert not problems, "\n".join(problems)
        assert emu.calls("getUpdates") == [], "a bot polled: it was half running"


def _quizbot(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A `quizbot` command as an operator types it, with only these settings."""
    full = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "QUIZBOT_"))},
        "PYTHONPATH": str(ROOT), "QUIZBOT_LOG_LEVEL": "WARNING", **env,
    }  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, env=full, capture_output=True,
        text=True, timeout=90,
    )  # fmt: skip


async def test_a_token_telegram_refuses_is_named_and_never_shown(tmp_path: Path) -> None:
    """A mistyped or revoked BOT_TOKEN: Telegram answers getMe with 401. PTB's InvalidToken
    carries the token in its text, which `quizbot run` and `quizbot web` printed whole, followed
    by asyncio's "Unclosed client session" errors for the HTTP sessions left open."""
    wrong = "987654:WRONG-token-typo"
    db = tmp_path / "quizbot.sqlite3"
    async with Emulator(token=TOKEN, flood=None) as emu:
        env = {"BOT_TOKEN": wrong, "QUIZBOT_API_BASE_URL": emu.base_url, "QUIZBOT_DB": str(db)}
        run = await asyncio.to_thread(_quizbot, "run", env=env)
        web = await asyncio.to_thread(_quizbot, "web", "--port", str(free_port()), env=env)
    for done, prefix in ((run, "quizbot: cannot start: "), (web, "quizbot web: cannot start: ")):
        assert done.returncode == 1, done.stderr
        assert "WRONG-token" not in done.stdout + done.stderr
        assert done.stderr.strip().splitlines() == [
            f"{prefix}Telegram refused the token in BOT_TOKEN: copy it again from @BotFather "
            "(/mybots, API Token)"
        ]
