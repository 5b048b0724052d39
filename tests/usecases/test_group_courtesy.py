"""Courtesy replies are claimed in the store (bot/usecases/group_courtesy.py): two
`GroupCourtesy` over one store stand for two workers, and the caps hold across them; a run
playing sends members' answers privately; /forget drops a member's rows."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.content import default_content_dir, load_catalog
from bot.core.courtesy import GROUP_REPLIES, HINTS_PER_QUESTION, WINDOW, Reply
from bot.store import GroupStore
from bot.store.courtesy_log import CourtesyStore
from bot.store.forget import ForgetStore
from bot.usecases.group_courtesy import GroupCourtesy
from bot.usecases.group_runs import GroupRuns, Started
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.kept_runs import StoredRuns
from tests.e2e.harness import FakeClock

CHAT = -100700


def worker(db: Any, clock: FakeClock) -> GroupCourtesy:
    store = GroupStore(db)
    settings = GroupSettingsCases(store, clock=clock)
    runs = GroupRuns(
        load_catalog(default_content_dir()), store, settings, clock=clock, kept=StoredRuns(store)
    )
    return GroupCourtesy(CourtesyStore(db), runs, clock)


async def test_a_command_is_answered_once_a_minute_whichever_worker(db: Any) -> None:
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    assert await a.command(CHAT, 1, "help") is Reply.IN_GROUP
    assert await b.command(CHAT, 1, "help") is Reply.NONE
    assert await b.command(CHAT, 1, "top") is Reply.IN_GROUP
    assert await a.command(CHAT + 1, 1, "help") is Reply.IN_GROUP  # another group's own
    clock.advance(WINDOW + 1)
    assert await b.command(CHAT, 1, "help") is Reply.IN_GROUP


async def test_a_group_gets_a_few_then_members_are_answered_privately(db: Any) -> None:
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    replies = [await (a, b)[n % 2].command(CHAT, 10 + n, "help") for n in range(GROUP_REPLIES + 2)]
    assert replies == [Reply.IN_GROUP] * GROUP_REPLIES + [Reply.PRIVATELY_BUSY] * 2


async def test_while_a_run_plays_members_are_answered_privately(db: Any) -> None:
    clock = FakeClock()
    a = worker(db, clock)
    started = await a.runs.start(CHAT, 1, "gradient-accumulation")
    assert isinstance(started, Started)
    assert await a.command(CHAT, 2, "help") is Reply.PRIVATELY_PLAYING
    assert await a.command(CHAT, 2, "help") is Reply.NONE


async def test_hints_are_capped_per_question_across_workers(db: Any) -> None:
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    # Members' replies handled at once by two workers: the cap still holds.
    given = await asyncio.gather(*((a, b)[n % 2].hint(CHAT, 100 + n, 5, 0) for n in range(12)))
    assert sum(given) == HINTS_PER_QUESTION
    hinted = [100 + n for n, g in enumerate(given) if g]
    assert not await a.hint(CHAT, hinted[0], 5, 0)  # once per member
    assert await b.hint(CHAT, hinted[0], 5, 1)  # the next question has its own few


async def test_forgetting_a_member_drops_their_courtesy_rows(db: Any) -> None:
    clock = FakeClock()
    a = worker(db, clock)
    assert await a.command(CHAT, 1, "help") is Reply.IN_GROUP
    await ForgetStore(db).forget(1)
    assert await a.command(CHAT, 1, "help") is Reply.IN_GROUP
