"""A group upgraded to a supergroup: its old chat is read-only for Telegram, and a button left
in it must say why it no longer works, change nothing, and leave no traceback in the log."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tests.e2e.groups_kit import group_bot, make_group


async def test_an_old_settings_button_says_the_group_moved_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """It answered "Saved." (nothing was saved: the group's settings had moved with it), then
    its edit of the old chat's message raised ChatMigrated, logged twice with a traceback."""
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send("/settings", chat=group)
        settings = await group.next_message(after=mark, timeout=10)
        new_id = await h.emu.migrate_to_supergroup(group, by=admin)
        with caplog.at_level(logging.INFO):
            answer = await admin.tap(settings, "Français")
            await asyncio.sleep(0.5)  # the edit after the popup, and any error it raised
        assert answer is not None and answer.text is not None
        assert "supergroup" in answer.text and "Saved" not in answer.text, answer.text
        # The supergroup's settings did not change, and the old chat is not a group again.
        assert h.rows("SELECT chat_id, language FROM groups") == [(new_id, "en")]
        tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
        assert tracebacks == []


async def test_a_quiz_picked_in_the_old_chat_leaves_the_supergroups_run_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The pick started a run under the old chat's id; its first send learned the group had
    moved, and moving that run into the supergroup, which had a run of its own in the same
    topic, broke the one-active-run-per-topic constraint: IntegrityError, two tracebacks, and
    a run left active for a chat nobody can write in."""
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send("/quiz", chat=group)
        picker = await group.next_message(after=mark, timeout=10)
        mark = group.mark()
        await admin.send("/push gradient-accumulation", chat=group)
        await group.wait_for(lambda m: "Question 1/" in m.text, after=mark, timeout=10)
        new_id = await h.emu.migrate_to_supergroup(group, by=admin)
        active = "SELECT chat_id FROM attempts WHERE kind = 'group' AND status = 'active'"
        for _ in range(50):  # the bot has moved the run with the group
            if h.rows(active) == [(new_id,)]:
                break
            await asyncio.sleep(0.05)
        with caplog.at_level(logging.INFO):
            await admin.tap(picker, picker.buttons[0][0].text)
            await asyncio.sleep(0.5)
        assert h.rows(active) == [(new_id,)]  # the supergroup's run, and no other
        tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
        assert tracebacks == []


async def test_a_quiz_picked_in_the_old_chat_starts_nothing_and_says_the_group_moved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Once the bot knows of the move, a pick in the old chat is told so: no run is started
    under the old id (its intro went to the supergroup), no group recorded there."""
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send("/quiz", chat=group)
        picker = await group.next_message(after=mark, timeout=10)
        new_id = await h.emu.migrate_to_supergroup(group, by=admin)
        for _ in range(50):  # the bot has moved the group
            if h.group_chats() == [(new_id,)]:
                break
            await asyncio.sleep(0.05)
        supergroup = h.emu.chat(new_id)
        mark = supergroup.mark()
        with caplog.at_level(logging.INFO):
            answer = await admin.tap(picker, picker.buttons[0][0].text)
            await asyncio.sleep(0.5)
        assert answer is not None and "supergroup" in (answer.text or ""), answer
        assert h.rows("SELECT chat_id FROM attempts WHERE kind = 'group'") == []
        assert h.group_chats() == [(new_id,)]
        assert [
            m.text for m in supergroup.bot_messages if m.message_id >= mark.next_message_id
        ] == []
        assert [r.getMessage() for r in caplog.records if r.exc_info] == []
