"""The dashboard under a flood of requests that cost nothing to send: each must cost us little
too. Distinct `&lang=` values, made-up group ids, 20 KB query lines (issue 25, items 8, 9, 11)."""

from __future__ import annotations

import gc
import html
import logging
import re
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.i18n import translator
from bot.store import GroupStore
from bot.web.admin_gate import BURST, REFILL_SECONDS
from tests.web.http_kit import ADMIN_ONLY, get, raw, status_of
from tests.web.scenario import AWA, CLAIRE, GROUP, Served
from tests.web.world_kit import ADMIN, STRANGER, World, world

__all__ = ["world"]  # the fixture, as `quizbot web` serves the dashboard (test_answer_keys)


@pytest.fixture(scope="module", name="served")
def flooded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A world of its own: these floods spend the log's budget, which other tests read."""
    world = Served(Path(tmp_path_factory.mktemp("flooded")))
    world.start()
    try:
        yield world
    finally:
        world.stop()


def test_distinct_languages_in_csv_links_share_the_supported_translators(
    served: Served,
) -> None:
    # A CSV link's `lang` is the viewer's to edit: 200 made-up values were 200 catalogues parsed
    # on the event loop and kept for good (25 MB). Only supported languages reach the cache.
    _, page, _ = get(served, f"/api/view?view=group&chat={GROUP}", served.init_data(AWA))
    link = re.search(r'href="(/csv/group/-?\d+/weeks\.csv\?[^"]+)"', page)
    assert link is not None
    base = link.group(1).replace("&amp;", "&").split("&lang=")[0]
    get(served, f"{base}&lang=zz-warmup")  # whatever a first request allocates once
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for n in range(200):
            status, body, _ = get(served, f"{base}&lang=x{n}")
            assert status == 200 and body.startswith("week_start,")
        gc.collect()
        grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename"))
    finally:
        tracemalloc.stop()
    assert grown < 2_000_000, f"the process kept {grown / 1e6:.1f} MB for 200 requests"
    # Whatever the caller passes, an unsupported language is English's one translator.
    assert translator("x-made-up") is translator("en") is translator("")


def test_made_up_group_ids_cost_no_telegram_call(served: Served) -> None:
    # 150 group views for chats the bot never saw were 150 getChatMember calls, from one learner.
    assert served.emu is not None
    before = len(served.emu.calls("getChatMember"))
    for n in range(150):
        status, page, _ = get(
            served, f"/api/view?view=group&chat=-100{n:06d}", served.init_data(CLAIRE)
        )
        assert status == 403 and ADMIN_ONLY in html.unescape(page)
    assert len(served.emu.calls("getChatMember")) == before


def test_a_member_asking_again_and_again_for_a_real_group_costs_one_call(served: Served) -> None:
    assert served.emu is not None
    before = len(served.emu.calls("getChatMember"))
    for _ in range(50):
        assert get(served, f"/api/view?view=group&chat={GROUP}", served.init_data(CLAIRE))[0] == 403
    assert len(served.emu.calls("getChatMember")) - before <= 1


@pytest.mark.parametrize(
    "request_line",
    [
        b"GET /api/view?" + b"a" * 20_000 + b" HTTP/1.1",  # beyond aiohttp's 8 KB line
        b"GET /api/view?view=preview&quiz=" + b"q" * 5_000 + b" HTTP/1.1",  # within it
        b"GET /csv/group/" + b"1" * 6_000 + b"/weeks.csv HTTP/1.1",
    ],
)
def test_oversized_requests_are_refused_in_one_short_line(
    served: Served, request_line: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        for _ in range(30):
            answer = raw(served, request_line + b"\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert status_of(answer) in (400, 414)
    assert "Traceback" not in caplog.text
    lines = [r for r in caplog.records if r.name.startswith(("aiohttp", "bot.web"))]
    assert len(lines) <= 21, [r.getMessage()[:100] for r in lines[:3]]  # rate-limited
    assert all(len(r.getMessage()) < 300 for r in lines)


def test_an_oversized_header_is_refused_in_one_short_line(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        answer = raw(
            served,
            b"GET /api/view HTTP/1.1\r\nHost: x\r\nAuthorization: tma " + b"b" * 20_000
            + b"\r\nConnection: close\r\n\r\n",
        )  # fmt: skip
    assert status_of(answer) == 400
    assert "Traceback" not in caplog.text


async def test_a_viewer_asking_about_many_groups_is_throttled(world: World, db) -> None:  # type: ignore[no-untyped-def]
    # Real groups the bot is in, none of them the stranger's: each new one is a getChatMember
    # call, so a viewer gets a burst of checks, then one every REFILL_SECONDS; a "no" is kept.
    groups = [-100_6000 - n for n in range(BURST + 5)]
    for chat_id in groups:
        chat = world.emu.group(chat_id, f"G{chat_id}")
        chat.add_member(world.emu.user(ADMIN, "Ada"), "creator")
        chat.add_member(world.emu.user(STRANGER, "U"))
        await world.emu.add_bot_to_group(chat, by=world.emu.user(ADMIN, "Ada"))
        await GroupStore(db).ensure_group(chat_id, "G", "en", 30, "UTC", world.clock())
    before = len(world.emu.calls("getChatMember"))
    statuses = [(await world.get(f"/api/view?view=group&chat={c}", STRANGER))[0] for c in groups]
    assert statuses == [403] * BURST + [429] * 5
    assert len(world.emu.calls("getChatMember")) - before == BURST
    status, page = await world.get(f"/api/view?view=group&chat={groups[-1]}", STRANGER)
    assert status == 429 and "try again in a minute" in page
    # Asking again about a group already answered costs nothing, even with the budget spent.
    assert (await world.get(f"/api/view?view=group&chat={groups[0]}", STRANGER))[0] == 403
    # Another viewer has a budget of their own; and time gives the stranger one back.
    assert (await world.get(f"/api/view?view=group&chat={groups[-1]}", ADMIN))[0] == 200
    world.clock.advance(REFILL_SECONDS)
    assert (await world.get(f"/api/view?view=group&chat={groups[-1]}", STRANGER))[0] == 403
    assert len(world.emu.calls("getChatMember")) - before == BURST + 2


def test_a_viewer_asking_again_and_again_costs_the_log_a_budgeted_line(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    # One valid initData (good for a day) and a loop: every 403 about a group was a log line of
    # its own, whatever the budget that bounds every other refusal (bot/log_budget.py).
    with caplog.at_level(logging.DEBUG):
        for n in range(150):
            chat = GROUP if n % 2 else f"-100{n:06d}"  # a real group, and made-up ones
            get(served, f"/api/view?view=group&chat={chat}", served.init_data(CLAIRE))
    lines = [r for r in caplog.records if r.name.startswith(("aiohttp", "bot.web"))]
    assert len(lines) <= 21, [r.getMessage()[:100] for r in lines[:3]]  # rate-limited


async def test_a_viewer_past_the_budget_of_checks_costs_the_log_a_budgeted_line(  # type: ignore[no-untyped-def]
    world: World, db, caplog: pytest.LogCaptureFixture
) -> None:
    # Past a viewer's budget of admin checks, each 429 was a log line of its own.
    groups = [-100_7000 - n for n in range(BURST + 1)]
    for chat_id in groups:
        chat = world.emu.group(chat_id, f"G{chat_id}")
        chat.add_member(world.emu.user(ADMIN, "Ada"), "creator")
        await world.emu.add_bot_to_group(chat, by=world.emu.user(ADMIN, "Ada"))
        await GroupStore(db).ensure_group(chat_id, "G", "en", 30, "UTC", world.clock())
    for chat_id in groups[:BURST]:
        assert (await world.get(f"/api/view?view=group&chat={chat_id}", STRANGER))[0] == 403
    with caplog.at_level(logging.DEBUG):
        for _ in range(100):
            status, _ = await world.get(f"/api/view?view=group&chat={groups[-1]}", STRANGER)
            assert status == 429
    lines = [r for r in caplog.records if r.name.startswith(("aiohttp", "bot.web"))]
    assert len(lines) <= 21, [r.getMessage()[:100] for r in lines[:3]]  # rate-limited
