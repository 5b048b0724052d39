"""Two workers (two `GroupRuns` reading runs from one store: `StoredRuns`; taps through
`GroupAnswers`) share a group run: what one of them learnt must not be missing on the other
(issue 20: no cache another worker makes stale)."""

from __future__ import annotations

import random
from typing import Any

from bot.store import GroupStore
from bot.store.selections import SelectionStore
from bot.usecases import group_answers as ga
from bot.usecases import group_runs as gr
from bot.usecases import group_settings as gs
from bot.usecases.kept_runs import StoredRuns
from bot.usecases.learner_profile import Learner
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
            kept=StoredRuns(GroupStore(db)),
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


async def test_a_tap_on_a_worker_that_saw_an_earlier_question_is_judged_on_the_current_one(
    db: Any,
) -> None:
    """A worker keeps the run as its last tap read it (issue 32): a tap on the question another
    worker opened since is answered, and one on the question it revealed since is closed."""
    clock = FakeClock()
    settings = gs.GroupSettingsCases(GroupStore(db), clock=clock)
    await settings.settings(CHAT, "Study", "en")
    a, b = (
        gr.GroupRuns(
            shipped_catalog(),
            GroupStore(db),
            settings,
            clock=clock,
            rng=random.Random(3),
            kept=StoredRuns(GroupStore(db)),
        )
        for _ in range(2)
    )
    on_a = ga.GroupAnswers(a, SelectionStore(db), clock=clock)  # members' taps on worker a
    started = await a.start(CHAT, 1, QUIZ)
    assert isinstance(started, gr.Started)
    run = await a.open_question(started.run, 0)
    assert run is not None

    def member(user_id: int) -> Learner:
        return Learner(user_id, f"M{user_id}", "en", None, "en")

    assert isinstance(await on_a.tap(CHAT, run.id, 0, 0, member(11), "en"), ga.Answered)
    revealed = await b.time_up(run.id, 0)  # worker b reveals question 1 and opens question 2
    assert revealed is not None and revealed.next_index == 1
    assert await b.open_question(revealed.reveal.run, 1) is not None

    assert isinstance(await on_a.tap(CHAT, run.id, 0, 1, member(12), "en"), ga.Closed)
    assert isinstance(await on_a.tap(CHAT, run.id, 1, 0, member(12), "en"), ga.Answered)
    assert isinstance(await on_a.tap(CHAT, run.id, 1, 0, member(12), "en"), ga.AlreadyAnswered)
    assert isinstance(await on_a.tap(CHAT - 1, run.id, 1, 0, member(13), "en"), ga.NotYours)
    assert await GroupStore(db).migrate(CHAT, CHAT - 5, clock())  # now a supergroup
    assert isinstance(await on_a.tap(CHAT - 5, run.id, 1, 0, member(15), "en"), ga.Answered)
    await b.stop(run.id)  # and the run stops on worker b: nothing more is recorded on a
    assert isinstance(await on_a.tap(CHAT, run.id, 1, 0, member(14), "en"), ga.Closed)
