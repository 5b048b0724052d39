"""An edited message is not a new one: Telegram sends the bot an `edited_message` when a user
edits a text it saw, days later if they like; acting on it would run an old command again
against what is open now."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from bot.emulator import Emulator
from bot.tg.options import BotOptions
from tests.e2e.groups_kit import group_bot, make_group
from tests.e2e.harness import TOKEN, Harness, compose_bot, shipped_catalog
from tests.reliability.support import shipped_length

N = shipped_length("gradient-checkpointing")


async def test_an_old_stop_edited_privately_does_not_abandon_the_quiz_now_running(
    harness: Harness,
) -> None:
    user = harness.emu.user(3007, "Ibou")
    await user.send("/start gradient-checkpointing")
    await user.private.wait_for(lambda m: f"1/{N}" in m.text)
    stop = await user.send("/stop")
    await user.private.wait_for(lambda m: "abandoned" in m.text.lower())
    await user.send("/start gradient-accumulation")
    await user.private.wait_for(lambda m: "1/" in m.text and "accumulation" in m.text)
    mark = user.private.mark()
    await user.edit(stop, "/stop ")
    await asyncio.sleep(0.5)
    said = [m.text for m in user.private.bot_messages if m.message_id >= mark.next_message_id]
    assert said == []
    assert sorted(harness.attempt_statuses()) == [("abandoned",), ("active",)]


async def test_an_old_stop_edited_in_a_group_does_not_stop_the_run_now_playing(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        stop = await admin.send("/stop", chat=group)
        assert "No quiz is running" in (await group.next_message(after=mark)).text
        await admin.send("/push gradient-checkpointing", chat=group)
        await group.wait_for(lambda m: "Question 1/2" in m.text)
        mark = group.mark()
        await admin.edit(stop, "/stop ")
        await asyncio.sleep(0.5)
        said = [m.text for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert said == []
        assert h.attempt_statuses() == [("active",)]


async def test_the_bot_does_not_ask_telegram_for_edits(tmp_path: Path) -> None:
    """It acts on none, and where it is an administrator Telegram would send it every edit of
    every message of the group: allowed_updates leaves them out (polling and webhook alike)."""
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = compose_bot(BotOptions(token=TOKEN, db_path=tmp_path / "w.sqlite3",
                                 catalog=shipped_catalog(), base_url=emu.base_url,
                                 rate_limit=False))  # fmt: skip
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        await bot.start_webhook("https://example.org/telegram", "s3cret-Token_1", "127.0.0.1", port)
        try:
            asked = (await bot.app.bot.get_webhook_info()).allowed_updates or ()
            assert "message" in asked and "callback_query" in asked
            assert not [kind for kind in asked if kind.startswith("edited_")], asked
        finally:
            await bot.stop()
