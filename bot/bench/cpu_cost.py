"""CPU seconds of every process a configuration runs on, read from /proc, for `bench scaling`.

Why a sum over processes: speed alone cannot tell on 2 shared cores whether N workers would
scale on N cores; the CPU a tap costs can. A configuration's cost is its bot processes (for
workers, each also serves the webhook front, so the front is in their figure) plus, on
PostgreSQL, the server: the postmaster and every backend and auxiliary process it forked.
Backends come and go (a pool's connection closes, a worker dies): one that exited during the
run is in the postmaster's `cutime`/`cstime` once reaped, one still alive in its own
`utime`/`stime`, so reading both before and after counts each CPU second exactly once.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name (field 3 onwards)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2 :].split()


def process_cpu(pid: int, *, reaped_children: bool = False) -> float:
    """utime + stime of `pid` (fields 14, 15), with its reaped children's (16, 17) if asked;
    0 for a process that is gone (it exited between listing and reading)."""
    try:
        fields = _stat_fields(pid)
    except (OSError, ValueError):
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICKS


def children(parent: int) -> list[int]:
    """Live processes whose parent is `parent` (field 4 of their stat)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if int(_stat_fields(int(entry))[1]) == parent:
                found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


def server_cpu(postmaster: int) -> float:
    """The PostgreSQL server's CPU so far: the postmaster, its reaped children, its live ones."""
    own = process_cpu(postmaster, reaped_children=True)
    return own + sum(process_cpu(pid) for pid in children(postmaster))


def server_processes(postmaster: int) -> dict[str, float]:
    """The server's live processes' CPU so far by kind (`checkpointer`, `walwriter`, a backend's
    `quizbot bench1 [local]` …, from their titles): where the server's CPU goes (--profile)."""
    kinds: dict[str, float] = {}
    for pid in children(postmaster):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        kind = " ".join(title.removeprefix("postgres: ").split()[:3])
        kinds[kind] = kinds.get(kind, 0.0) + process_cpu(pid)
    return kinds


def postmaster_pid(datadir: Path) -> int:
    """The first line of postmaster.pid: the running server's process id."""
    return int((datadir / "postmaster.pid").read_text().splitlines()[0])


class CpuMeter:
    """CPU of a set of bot processes and, if given, a PostgreSQL server, between marks."""

    def __init__(self, bots: Iterable[int], postmaster: int | None = None) -> None:
        self.bots, self.postmaster = list(bots), postmaster

    def read(self) -> tuple[float, float]:
        """(bot processes' CPU seconds, the server's) so far."""
        bots = sum(process_cpu(pid) for pid in self.bots)
        server = server_cpu(self.postmaster) if self.postmaster is not None else 0.0
        return bots, server
