"""Three worker processes on PostgreSQL, learners and a group run, one worker SIGKILLed
mid-burst: every acknowledged answer stored once, the run completes, no question revealed
twice, no 429; the same with the run pushed in a forum topic (issue 27), where every
message of the run, also after the kill, lands in that topic; and the same with the workers
long-polling, the one polling killed. The scenario
(tests/workers/workers_scenario.py) runs in a process of its own."""

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
async def test_three_workers_one_killed_mid_burst(pg_cluster: Cluster) -> None:
    await _scenario(pg_cluster)


@pytest.mark.timeout(300)
async def test_a_run_in_a_forum_topic_stays_there_when_a_worker_is_killed(
    pg_cluster: Cluster,
) -> None:
    await _scenario(pg_cluster, "--forum")


@pytest.mark.timeout(300)
async def test_three_workers_long_polling_the_poller_killed_mid_burst(
    pg_cluster: Cluster,
) -> None:
    """No webhook: one worker at a time polls Telegram (bot/workers/poller.py); the one polling
    is killed mid-burst, another takes over, and nothing is lost or stored twice."""
    await _scenario(pg_cluster, "--poll")


async def _scenario(pg_cluster: Cluster, *flags: str) -> None:
    dsn = await new_database(pg_cluster, migrated=False)
    done = subprocess.run(
        [sys.executable, "-m", "tests.workers.workers_scenario", dsn, *flags],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
