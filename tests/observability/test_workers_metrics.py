"""Several workers: `/metrics` on the front reads the inbox, timers and leases from PostgreSQL,
and counters written by separate worker processes are added up by whichever one is scraped."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

from bot.observability import gauges
from bot.observability.exposition import MULTIPROC_ENV
from bot.store.pg.inbox import UpdateQueue
from bot.store.pg.pacing import Workers
from bot.store.pg.timers import TimerQueue
from bot.store.pg.work_stats import work_state
from bot.workers.front import Front

ROOT = Path(__file__).resolve().parents[2]


def _values(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_the_front_reports_the_shared_queues_from_postgresql(pg_pool: asyncpg.Pool) -> None:
    front_queue = UpdateQueue(pg_pool, "front")
    for uid in range(1, 6):
        await front_queue.put(uid, f"c{uid}", "{}")
    await UpdateQueue(pg_pool, "w1", lease=30).claim(2)  # w1 holds two updates
    now = time.time()
    timers = TimerQueue(pg_pool, "w2", lease=30)
    await timers.arm("run:1", now - 5)
    await timers.arm("run:2", now - 4)
    await timers.arm("run:3", now + 600)  # not due
    await timers.claim_due(now, limit=1)  # w2 holds one of the two overdue
    await Workers(pg_pool, "w1", stale=30).beat()
    await Workers(pg_pool, "w2", stale=30).beat()
    await asyncio.sleep(0.05)  # the oldest update has an age

    async def probe():  # type: ignore[no-untyped-def]
        state = await work_state(pg_pool, time.time())
        return [
            *gauges.inbox(state.waiting, state.oldest_age),
            gauges.timers_overdue(state.timers_overdue),
            *gauges.leases(state.leases, state.workers),
        ]

    front = Front(front_queue, "s3cret", probe=probe)
    async with TestClient(TestServer(front.app())) as client:
        resp = await client.get("/metrics")
        assert resp.status == 200
        values = _values(await resp.text())
    assert values[("quizbot_inbox_updates", ())] == 5
    assert values[("quizbot_inbox_oldest_age_seconds", ())] > 0
    assert values[("quizbot_timers_overdue", ())] == 1  # the other one is leased
    leases = {k: v for k, v in values.items() if k[0] == "quizbot_worker_leases"}
    assert leases == {
        ("quizbot_worker_leases", (("queue", "updates"), ("worker", "w1"))): 2,
        ("quizbot_worker_leases", (("queue", "timers"), ("worker", "w2"))): 1,
    }
    assert values[("quizbot_workers_alive", ())] == 2


async def test_a_probe_that_fails_costs_its_gauges_not_the_page(pg_pool: asyncpg.Pool) -> None:
    async def probe():  # type: ignore[no-untyped-def]
        raise OSError("database unreachable")

    front = Front(UpdateQueue(pg_pool, "front"), "s3cret", probe=probe)
    async with TestClient(TestServer(front.app())) as client:
        resp = await client.get("/metrics")
        assert resp.status == 200
        text = await resp.text()
    values = _values(text)
    assert ("quizbot_answers_stored_total", ()) in values  # the counters are all there
    assert "quizbot_inbox_updates" not in text


COUNT = """
import sys
from bot.observability import metrics
metrics.api("answerCallbackQuery").answered()
metrics.answers_stored(int(sys.argv[1]))
"""
SCRAPE = """
import asyncio
from bot.observability.exposition import scrape
print(asyncio.run(scrape()).decode())
"""


def test_workers_counters_are_added_up_by_whichever_is_scraped(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), MULTIPROC_ENV: str(tmp_path)}
    for stored in (3, 4):  # two workers, each its own process and its own file
        subprocess.run([sys.executable, "-c", COUNT, str(stored)], env=env, check=True)
    done = subprocess.run(
        [sys.executable, "-c", SCRAPE], env=env, check=True, capture_output=True, text=True
    )
    values = _values(done.stdout)
    assert values[("quizbot_answers_stored_total", ())] == 7
    method = (("method", "answercallbackquery"),)
    assert values[("quizbot_bot_api_calls_total", method)] == 2
