"""Flood control (429 with retry_after) and injected faults, seen from PTB."""

from __future__ import annotations

import datetime as dt

import pytest
import telegram
from emu_support import FakeClock, make_bot
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from bot.emulator import Emulator, FloodLimits
from bot.emulator.flood import FloodControl


async def test_group_gets_429_after_20_messages_a_minute(
    flood_emu: Emulator, clock: FakeClock
) -> None:
    emu = flood_emu
    awa = emu.user(1001, "Awa")
    group = emu.group(-100123, "Study group")
    group.add_member(awa, "creator")
    await emu.add_bot_to_group(group, by=awa)
    async with make_bot(emu) as bot:
        for i in range(20):
            clock.advance(0.5)  # slow enough for the global and 1-second limits
            await bot.send_message(group.id, f"push {i}")
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(group.id, "one too many")
        # the first of the 20 went out 9.5 s ago: the window frees in 50.5 s -> 51
        assert caught.value.retry_after == dt.timedelta(seconds=51)
        assert emu.stats.flood_errors == 1
        assert emu.stats.requests["sendMessage"] == 21
        # edits do not count toward the group's window
        first = group.bot_messages[0]
        await bot.edit_message_text("edited", group.id, first.message_id)
        clock.advance(51)
        await bot.send_message(group.id, "again")


def test_private_chat_allows_a_burst_then_one_a_second() -> None:
    clock = FakeClock()
    flood = FloodControl(FloodLimits(per_private_burst=3), clock)
    assert [flood.acquire(1001, private=True) for _ in range(3)] == [None, None, None]
    assert flood.acquire(1001, private=True) == 1
    assert flood.acquire(1002, private=True) is None  # another chat is unaffected
    clock.advance(1)
    assert flood.acquire(1001, private=True) is None
    assert flood.acquire(1001, private=True) == 1


def test_global_limit_counts_edits_but_not_per_chat() -> None:
    clock = FakeClock()
    flood = FloodControl(FloodLimits(global_per_second=30), clock)
    for chat in range(30):
        assert flood.acquire(chat, private=True, edit=chat % 2 == 0) is None
    assert flood.acquire(99, private=True) == 1
    assert flood.acquire(99, private=True, edit=True) == 1
    clock.advance(1)
    assert flood.acquire(99, private=True) is None
    off = FloodControl(FloodLimits(edits_count_globally=False, global_per_second=1), clock)
    assert off.acquire(1, private=True) is None
    assert off.acquire(1, private=True, edit=True) is None


def test_no_limits() -> None:
    flood = FloodControl(None, FakeClock())
    assert all(flood.acquire(1, private=True) is None for _ in range(1000))


async def test_injected_api_errors(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    emu.faults.add("sendMessage", "429", retry_after=7)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(awa.id, "x")
    assert caught.value.retry_after == dt.timedelta(seconds=7)
    assert emu.stats.flood_errors == 1
    emu.faults.add("sendMessage", "403_blocked", chat_id=awa.id)
    with pytest.raises(Forbidden, match="blocked"):
        await bot.send_message(awa.id, "x")
    emu.faults.add("sendmessage", "400_chat_not_found")
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(awa.id, "x")
    emu.faults.add("sendMessage", "500", times=2)
    for _ in range(2):
        with pytest.raises(NetworkError):
            await bot.send_message(awa.id, "x")
    emu.faults.add("sendMessage", "502")
    with pytest.raises(NetworkError, match="Bad Gateway"):
        await bot.send_message(awa.id, "x")
    sent = await bot.send_message(awa.id, "finally")  # faults used up
    emu.faults.add("editMessageText", "not_modified")
    with pytest.raises(BadRequest, match="not modified"):
        await bot.edit_message_text("new", awa.id, sent.message_id)
    emu.faults.add("answerCallbackQuery", "query_too_old")
    with pytest.raises(BadRequest, match="too old"):
        await bot.answer_callback_query("1")
    assert [m.text for m in awa.private.bot_messages] == ["finally"]


async def test_fault_for_one_chat_only(emu: Emulator, bot: telegram.Bot) -> None:
    awa, bintou = emu.user(1001, "Awa"), emu.user(1002, "Bintou")
    await awa.send("/start")
    await bintou.send("/start")
    emu.faults.add("sendMessage", "403_blocked", chat_id=bintou.id, times=None)
    await bot.send_message(awa.id, "fine")
    with pytest.raises(Forbidden):
        await bot.send_message(bintou.id, "x")


async def test_timeout_and_drop(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    emu.faults.add("sendMessage", "timeout", delay=2)
    with pytest.raises(TimedOut):
        await bot.send_message(awa.id, "lost", read_timeout=0.2)
    assert awa.private.bot_messages == []  # not handled: nothing was sent
    emu.faults.add("sendMessage", "timeout", delay=2, handled=True)
    with pytest.raises(TimedOut):
        await bot.send_message(awa.id, "sent, answer lost", read_timeout=0.2)
    assert [m.text for m in awa.private.bot_messages] == ["sent, answer lost"]
    emu.faults.add("sendMessage", "drop")
    with pytest.raises(NetworkError):
        await bot.send_message(awa.id, "dropped")
    assert len(awa.private.bot_messages) == 1
    await bot.send_message(awa.id, "works again")


async def test_unknown_fault_kind_is_refused(emu: Emulator) -> None:
    with pytest.raises(ValueError, match="unknown fault kind"):
        emu.faults.add("sendMessage", "meteor")
