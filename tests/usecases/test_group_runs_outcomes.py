"""Group runs and settings on a real database file: taps bound to the run's chat, what follows
a reveal, /stop, and settings keys, without Telegram."""

from __future__ import annotations

import random

import pytest

from bot.core.group_run import Step
from bot.store import Database, GroupStore
from bot.store.selections import SelectionStore
from bot.usecases import group_answers as ga
from bot.usecases import group_runs as gr
from bot.usecases import group_settings as gs
from bot.usecases.learner_profile import Learner
from tests.e2e.harness import FakeClock, shipped_catalog

CHAT, ELSEWHERE = -500, -600
NEW_CHAT = -1000000000500  # CHAT, become a supergroup
QUIZ = "gradient-accumulation"
# Values no button carries, and SQL column names passed as keys: none may reach the store.
NOT_OFFERED = [("lang", "xx"), ("seconds", "7"), ("shuffle", "maybe"),
               ("seconds_per_question", "10"), ("language", "fr"), ("title", "x")]  # fmt: skip


def member(user_id: int, chosen: str | None = None) -> Learner:
    return Learner(user_id, f"M{user_id}", "fr", chosen, chosen or "fr")


async def test_a_run_from_start_to_results(db: Database) -> None:
    clock = FakeClock()
    settings = gs.GroupSettingsCases(GroupStore(db), clock=clock)
    await settings.settings(CHAT, "Study", "en")
    runs = gr.GroupRuns(shipped_catalog(), GroupStore(db), settings, clock=clock,
                        rng=random.Random(5))  # fmt: skip
    answers = ga.GroupAnswers(runs, SelectionStore(db), clock=clock)
    assert await runs.start(CHAT, 1, "no-such-quiz") == gr.UnknownQuiz()
    started = await runs.start(CHAT, 1, QUIZ)
    assert isinstance(started, gr.Started)
    assert await runs.start(CHAT, 1, QUIZ) == gr.Busy()
    run = started.run
    run = await runs.open_question(run, 0)
    await runs.question_sent(run, 77)

    # A tap with the run's data from another chat: refused, in the member's language.
    assert await answers.tap(ELSEWHERE, run.id, 0, 0, member(3), "en") == ga.NotYours("fr")
    assert await answers.tap(CHAT, run.id, 1, 0, member(3), "en") == ga.Closed("fr")
    tap = await answers.tap(CHAT, run.id, 0, 0, member(3, chosen="wo"), "en")
    assert isinstance(tap, ga.Answered) and tap.lang == "wo"
    assert await answers.tap(CHAT, run.id, 0, 1, member(3), "en") == ga.AlreadyAnswered("fr")

    up = await runs.time_up(run.id, 0)
    assert up is not None and up.next_index == 1 and up.results is None
    assert sum(up.reveal.counts) == 1
    assert await runs.time_up(run.id, 0) is None  # revealed once
    run = await runs.open_question(up.reveal.run, 1)
    stopped = await runs.stop(run.id)
    assert stopped.reveal is not None and stopped.reveal.index == 1
    assert stopped.results is not None and stopped.results.players == 1
    assert await runs.active_run(CHAT) is None
    assert isinstance(await runs.start(CHAT, 1, QUIZ), gr.Started)  # free again

    # After a restart, the open question's timer is set again for the time it has left.
    later = gr.GroupRuns(shipped_catalog(), GroupStore(db), settings, clock=clock)
    (plan,) = await later.resume_plan()
    assert (plan.step, plan.index, plan.delay) == (Step.ASK, 0, 0.0)


async def test_settings_keys_are_mapped_in_the_use_case(db: Database) -> None:
    settings = gs.GroupSettingsCases(GroupStore(db), clock=FakeClock())
    await settings.settings(CHAT, "Study", "en")
    for key, value in NOT_OFFERED:
        assert await settings.change(CHAT, key, value) == gs.Invalid(), (key, value)
    saved = await settings.change(CHAT, "seconds", "10")
    assert isinstance(saved, gs.Saved) and saved.settings.seconds == 10
    saved = await settings.change(CHAT, "shuffle", "off")
    assert isinstance(saved, gs.Saved) and not saved.settings.shuffle
    saved = await settings.change(CHAT, "lang", "wo")
    assert isinstance(saved, gs.Saved) and saved.settings.language == "wo"
    assert isinstance(await settings.set_timezone(CHAT, "Mars/Olympus"), gs.UnknownZone)
    zone = await settings.set_timezone(CHAT, "Africa/Dakar")
    assert isinstance(zone, gs.Saved) and zone.settings.timezone == "Africa/Dakar"


async def test_a_stray_run_of_a_groups_old_chat_is_not_kept_beside_the_supergroups(
    db: Database,
) -> None:
    """A run started under the old chat's id after the group had moved (a button tapped there
    before this process heard of the move) is abandoned by the move; the process must not
    keep playing it in the supergroup beside the supergroup's own run."""
    clock = FakeClock()
    settings = gs.GroupSettingsCases(GroupStore(db), clock=clock)
    await settings.settings(CHAT, "Study", "en")
    runs = gr.GroupRuns(shipped_catalog(), GroupStore(db), settings, clock=clock,
                        rng=random.Random(7))  # fmt: skip
    moved = await runs.start(NEW_CHAT, 1, QUIZ)  # the supergroup's own run (another worker's)
    stray = await runs.start(CHAT, 1, QUIZ)  # a tap in the old chat, the move not yet recorded
    assert isinstance(moved, gr.Started) and isinstance(stray, gr.Started)
    await settings.migrate(CHAT, NEW_CHAT)  # recorded now (the stray run's first send, say)
    await runs.moved(CHAT, NEW_CHAT)
    assert [run.id for run in await runs.active_runs(NEW_CHAT)] == [moved.run.id]
    assert await runs.active_runs(CHAT) == []
    # Once the move is recorded, nothing starts under the old id.
    with pytest.raises(gs.GroupMoved):
        await runs.start(CHAT, 1, QUIZ)
