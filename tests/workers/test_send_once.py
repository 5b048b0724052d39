"""Send-once: a question whose worker died between sending it and recording it is not sent
again by the workers that take over (the scenario, tests/workers/sendonce_scenario.py, runs in
a process of its own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store.pg.cluster import Cluster
from tests.pgserver import new_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(300)
async def test_a_question_sent_by_a_killed_host_is_not_sent_again(pg_cluster: Cluster) -> None:
    dsn = await new_database(pg_cluster, migrated=False)
    done = subprocess.run(
        [sys.executable, "-m", "tests.workers.sendonce_scenario", dsn],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
