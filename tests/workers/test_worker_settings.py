"""A worker is configured from the environment as `quizbot run` is: a setting one process
honours and a worker ignored is a deployment that changes behaviour when it scales out."""

from __future__ import annotations

import asyncio

import pytest

from bot.bench.webhook import Workers
from bot.emulator import Emulator
from bot.store.pg.cluster import Cluster
from tests.pgserver import new_database

TOKEN = "123456:TEST-worker-settings"
GUIDES = "https://learn.school.org/guides/"


@pytest.mark.timeout(120)
async def test_a_worker_points_guide_links_at_the_deployments_site(
    pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUIZBOT_GUIDE_BASE_URL", GUIDES)  # the workers inherit the environment
    dsn = await new_database(pg_cluster, migrated=False)
    async with Emulator(token=TOKEN) as emu:
        workers = Workers(emu, TOKEN, dsn, 1, poll=True)
        workers.start()
        try:
            await asyncio.wait_for(workers.ready(), 60)
            learner = emu.user(4242, "Awa", language_code="en")
            mark = learner.private.mark()
            await learner.send("/start gradient-accumulation")
            question = await learner.private.wait_for(lambda m: bool(m.buttons), after=mark)
            await learner.tap(question, "A", timeout=30)
            answered = await learner.private.wait_for(
                lambda m: "href=" in (m.html or ""), after=mark, timeout=30
            )
        finally:
            codes = workers.stop()
    assert f'href="{GUIDES}gradient-accumulation"' in (answered.html or "")
    assert codes == [0]
