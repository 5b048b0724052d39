"""Two workers (two `GroupRuns` with `shared=True` over one store) share a group run: what one
of them learnt must not be missing on the other (issue 20: no cache another worker makes stale)."""

from __future__ import annotations

import random
from typing import Any

from bot.store import GroupStore
from bot.usecases import group_runs as gr
from bot.usecases import group_settings as gs
from tests.e2e.harness import FakeClock, shipped_catalog

CHAT = -700
QUIZ = "gradient-accumulation"


async def test_a_run_nobody_answers_stops_whichever_worker_fires_its_timers(db: Any) -> None:
    clock = FakeClock()
    settings = gs.GroupSettingsCases(GroupStore(db), clock=clock)
    await settings.settings(CHAT, "Study", "en")
    workers = [
        gr.GroupRuns(
            shipped_catalog(),
            GroupStore(db),
            settings,
            clock=clock,
            rng=random.Random(7),
            shared=True,
        )
        for _ in range(2)
    ]
    started = await workers[0].start(CHAT, 1, QUIZ)
    assert isinstance(started, gr.Started)
    run = await workers[0].open_question(started.run, 0)
    first = await workers[0].time_up(run.id, 0)  # nobody answered question 1
    assert first is not None and first.next_index == 1 and first.results is None
    run = await workers[1].open_question(first.reveal.run, 1)
    second = await workers[1].time_up(run.id, 1)  # nor question 2, on the other worker
    assert second is not None and second.unattended and second.results is not None
    assert await workers[0].active_run(CHAT) is None
