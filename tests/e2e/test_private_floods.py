"""Floods in a private chat: one person's burst costs the bot a few sends, not minutes.

Before: 100 commands sent in a burst got 100 replies, paced at Telegram's 1 a second in that
chat, and the person's later taps waited behind the backlog (one chat's updates are handled in
order). Now, past `BURST` messages ahead of that pace, the bot says once to slow down and drops
the rest until the person is calm again (bot/core/bursts.py); taps are never dropped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from bot.core.bursts import BURST
from bot.emulator import Emulator, FloodLimits
from bot.emulator.driver import ChatView, Mark
from bot.tg.options import BotOptions
from tests.e2e.harness import TOKEN, FakeClock, Harness, shipped_catalog

FLOOD = 100
SLOW_DOWN = "Slow down"


def _since(chat: ChatView, mark: Mark) -> list[str]:
    return [m.text for m in chat.bot_messages if m.message_id >= mark.next_message_id]


async def _quiet(chat: ChatView, seconds: float = 0.5, most: float = 30.0) -> None:
    """Wait until the bot has posted nothing in `chat` for `seconds` (real time)."""
    deadline = time.monotonic() + most
    seen = -1
    while time.monotonic() < deadline:
        count = len(chat.messages)
        if count == seen:
            return
        seen = count
        await asyncio.sleep(seconds)


async def test_a_burst_of_commands_gets_a_few_replies_one_notice_then_quiet_until_calm(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()  # messages are dated by it: the burst is one second
    async with Emulator(token=TOKEN, flood=None, clock=clock) as emu:
        h = Harness(emu, tmp_path / "quizbot.sqlite3", shipped_catalog(), clock=clock)
        h.sender_burst = BURST  # as production runs
        await h.start_bot()
        try:
            awa = emu.user(6101, "Awa", language_code="en")
            mark = awa.private.mark()
            with caplog.at_level(logging.DEBUG, logger="bot"):
                for _ in range(FLOOD):
                    await awa.send("/help")
                await awa.private.wait_for(lambda m: SLOW_DOWN in m.text, after=mark)
                await _quiet(awa.private)
            said = _since(awa.private, mark)
            assert len(said) <= BURST + 1, len(said)  # at most a handful of sendMessage
            assert sum(SLOW_DOWN in text for text in said) == 1, said
            assert len(emu.calls("sendMessage")) == len(said)
            dropped = [r for r in caplog.records if r.name == "bot.tg.flood_handlers"]
            assert dropped and all(r.levelno <= logging.INFO for r in dropped)
            # Calm again: a minute later she is answered as before, without a second notice.
            clock.advance(60)
            again = awa.private.mark()
            await awa.send("/help")
            reply = await awa.private.next_message(after=again)
            assert "/quizzes" in reply.text
        finally:
            await h.stop_bot()


async def test_a_notice_in_the_senders_language(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Emulator(token=TOKEN, flood=None, clock=clock) as emu:
        h = Harness(emu, tmp_path / "quizbot.sqlite3", shipped_catalog(), clock=clock)
        h.sender_burst = BURST  # as production runs
        await h.start_bot()
        try:
            for user, words in [
                (emu.user(6102, "Awa", language_code="fr"), "Doucement"),
                (emu.user(6103, "Modou", language_code="wo"), "Ndànk"),
            ]:
                mark = user.private.mark()
                for _ in range(BURST + 5):
                    await user.send("/quizzes")
                await user.private.wait_for(lambda m, w=words: w in m.text, after=mark)
        finally:
            await h.stop_bot()


async def test_after_a_burst_the_persons_taps_and_everyone_else_are_answered_at_once(
    tmp_path: Path,
) -> None:
    """With Telegram's pace (1 message a second in a private chat): the burst's replies no
    longer hold the person's next tap for a minute and more, nor anyone else's command."""
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        h = PacedHarness(emu, tmp_path / "quizbot.sqlite3", shipped_catalog())
        await h.start_bot()
        try:
            awa, bob = emu.user(6104, "Awa"), emu.user(6105, "Bob")
            await awa.send("/start")
            menu = await awa.private.wait_for(lambda m: bool(m.buttons))
            for _ in range(FLOOD):
                await awa.send("/help")
            started = time.monotonic()
            mark = bob.private.mark()
            await bob.send("/help")
            await bob.private.next_message(after=mark, timeout=5)
            # Awa's next tap waits behind her burst's few replies at most, not a hundred.
            await awa.tap(menu, menu.buttons[0][0].text, timeout=15)
            assert time.monotonic() - started < 20
            assert emu.stats.flood_errors == 0
        finally:
            await h.stop_bot()


class PacedHarness(Harness):
    """The harness with the bot's own rate limiter on, as production runs."""

    def options(self) -> BotOptions:
        options = super().options()
        options.rate_limit, options.sender_burst = True, BURST
        return options
