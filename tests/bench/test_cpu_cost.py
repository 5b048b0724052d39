"""bench scaling's CPU meter on real processes: a server's children count, alive or reaped."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bot.bench.cpu_cost import children, process_cpu, server_cpu

BURN = "import time\nend = time.process_time() + {s}\nwhile time.process_time() < end: pass\n"


def test_a_reaped_child_still_counts_as_its_parents() -> None:
    me = os.getpid()
    before = server_cpu(me)
    subprocess.run([sys.executable, "-c", BURN.format(s=0.6)], check=True)  # waited: reaped
    assert server_cpu(me) - before >= 0.5


def test_a_live_child_counts_while_it_runs() -> None:
    me = os.getpid()
    before = server_cpu(me)
    child = subprocess.Popen([sys.executable, "-c", BURN.format(s=30)])
    try:
        deadline = time.monotonic() + 20
        while process_cpu(child.pid) < 0.5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert child.pid in children(me)
        assert round(server_cpu(me) - before, 2) >= 0.5  # ticks of 0.01 s: 8.45 - 7.95 < 0.5
    finally:
        child.kill()
        child.wait()


def test_a_process_that_is_gone_costs_nothing() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert process_cpu(child.pid) == 0.0
