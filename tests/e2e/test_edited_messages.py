"""An edited message is not a new one: Telegram sends the bot an `edited_message` when a user
edits a text it saw, days later if they like; acting on it would run an old command again
against what is open now."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.groups_kit import group_bot, make_group
from tests.e2e.harness import Harness
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
