"""getUpdates: real long polling, offsets, allowed_updates and Telegram's conflicts."""

from __future__ import annotations

import asyncio
import time

import pytest
import telegram
from emu_support import make_bot
from telegram.error import Conflict

from bot.emulator import Emulator


async def test_long_poll_returns_as_soon_as_a_user_writes(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    poll = asyncio.create_task(bot.get_updates(timeout=10, read_timeout=15))
    await asyncio.sleep(0.05)
    assert not poll.done()  # it really waits
    started = time.perf_counter()
    await awa.send("/start")
    updates = await poll
    assert time.perf_counter() - started < 0.5
    assert updates[0].message is not None and updates[0].message.text == "/start"


async def test_empty_poll_waits_for_the_timeout(bot: telegram.Bot) -> None:
    started = time.perf_counter()
    assert await bot.get_updates(timeout=1) == ()
    assert 0.9 < time.perf_counter() - started < 2


async def test_offset_confirms_and_limit_caps(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    for i in range(5):
        await awa.send(f"m{i}")
    first = await bot.get_updates(limit=2)
    assert [u.message.text for u in first if u.message] == ["m0", "m1"]
    again = await bot.get_updates(limit=2)
    assert again == first  # unconfirmed updates come back
    rest = await bot.get_updates(offset=first[-1].update_id + 1)
    assert [u.message.text for u in rest if u.message] == ["m2", "m3", "m4"]
    assert emu.pending_updates == 3
    assert await bot.get_updates(offset=rest[-1].update_id + 1) == ()
    assert emu.pending_updates == 0


async def test_negative_offset_keeps_the_latest(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    for i in range(4):
        await awa.send(f"m{i}")
    latest = await bot.get_updates(offset=-1)
    assert [u.message.text for u in latest if u.message] == ["m3"]


async def test_allowed_updates_filter_and_persist(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    awa.block_bot()  # a my_chat_member update
    updates = await bot.get_updates(allowed_updates=["my_chat_member"])
    assert [u.my_chat_member is not None for u in updates] == [True]
    await awa.send("/start")  # unblock (my_chat_member) + message
    updates = await bot.get_updates(offset=updates[-1].update_id + 1)  # filter remembered
    assert [u.my_chat_member is not None for u in updates] == [True]


async def test_second_poller_ends_the_first_with_conflict(emu: Emulator) -> None:
    async with make_bot(emu) as first, make_bot(emu) as second:
        waiting = asyncio.create_task(first.get_updates(timeout=5))
        await asyncio.sleep(0.05)
        quick = asyncio.create_task(second.get_updates(timeout=0))
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await waiting
        assert await quick == ()


async def test_webhook_blocks_polling(bot: telegram.Bot) -> None:
    assert await bot.set_webhook("https://example.org/hook")
    assert (await bot.get_webhook_info()).url == "https://example.org/hook"
    with pytest.raises(Conflict, match="can't use getUpdates method while webhook is active"):
        await bot.get_updates()
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert await bot.get_updates() == ()


async def test_stop_releases_a_waiting_poll(emu: Emulator, bot: telegram.Bot) -> None:
    poll = asyncio.create_task(bot.get_updates(timeout=30, read_timeout=35))
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    await emu.stop()
    assert await poll == ()
    assert time.perf_counter() - started < 1
