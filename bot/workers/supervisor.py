"""`quizbot run --workers N`: N worker processes on one host, one port, one database.

Each worker is a whole bot (bot/cli/worker.py): it serves the webhook front on the shared
port (SO_REUSEPORT: the kernel spreads Telegram's connections) and processes whatever updates
and timers are free in PostgreSQL. Processes, not threads or tasks: one Python process serves
one core, which is the limit several workers are for.

The supervisor only starts, restarts and stops them. A worker that dies is started again after
a pause (its claims come back to the pool when its leases end), unless it never started: a
first start that fails (the worker printed why) stops them all, as `quizbot run` stops.
SIGTERM or SIGINT is passed on to every worker, which finishes or hands back its work
(`--grace`), and the supervisor waits for all of them. Several hosts: run
`quizbot run --workers N` on each, with the same QUIZBOT_DB, behind one load balancer.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from types import FrameType

log = logging.getLogger(__name__)
RESTART_PAUSE = 1.0  # seconds before a dead worker is started again
CHECK_EVERY = 0.2
# A worker's exit status when it cannot start (its database, token, content or port; sysexits'
# EX_CONFIG). On a worker's first start it ends the run: every restart would fail the same way.
CANNOT_START = 78


def supervise(
    count: int,
    command: Callable[[int], list[str]],
    *,
    grace: float = 20.0,
    popen: Callable[[list[str]], subprocess.Popen[bytes]] = subprocess.Popen,
) -> int:
    """Run `command(i)` for i in range(count) until SIGTERM/SIGINT; 0 once all have stopped,
    1 if one of them could not start the first time (the others are stopped)."""
    stopping = False
    failed = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    workers: dict[int, subprocess.Popen[bytes]] = {}
    died_at: dict[int, float] = {}
    first = set(range(count))  # workers whose first process has not ended
    try:
        for i in range(count):
            workers[i] = popen(command(i))
        log.info("started %d workers", count)
        while not stopping:
            time.sleep(CHECK_EVERY)
            for i, proc in list(workers.items()):
                code = proc.poll()
                if code is None:
                    continue
                if i in first:
                    first.discard(i)
                    if code == CANNOT_START:
                        stopping = failed = True
                        break
                if i not in died_at:
                    log.error("worker %d exited with %s; starting it again", i, code)
                    died_at[i] = time.monotonic()
                elif time.monotonic() - died_at[i] >= RESTART_PAUSE:
                    del died_at[i]
                    workers[i] = popen(command(i))
    finally:
        for proc in workers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace + 5
        for proc in workers.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.error("worker %d did not stop in time: killed", proc.pid)
                proc.kill()
                proc.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 1 if failed else 0


def worker_command(index: int, count: int, argv: list[str]) -> list[str]:
    """The command line of worker `index`: this Python, the worker module, its place."""
    return [
        sys.executable,
        "-m",
        "bot.cli.worker",
        "--index",
        str(index),
        "--count",
        str(count),
        *argv,
    ]
