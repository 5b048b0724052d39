"""A tap Telegram no longer lets the bot answer ("query is too old": the bot was slow, or
restarted with taps waiting) loses its popup, never the work after it: a practice answer is
stored and the next question still comes; a standings button still switches the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.support import bot_at, handler_errors


async def test_a_practice_answer_too_old_to_answer_still_brings_the_next_question(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with bot_at(tmp_path) as h:
        user = h.emu.user(5104, "Diary")
        chat = user.private
        await user.send("/practice")
        chooser = await chat.wait_for(lambda m: "▶️ Start" in str(m.buttons))
        mark = chat.mark()
        await user.tap(chooser, "▶️ Start")
        first = await chat.wait_for(lambda m: "Practice 1/" in m.text, after=mark)
        h.emu.faults.add("answerCallbackQuery", "query_too_old")
        mark = chat.mark()
        await user.tap(first, "A", wait=False)
        await chat.wait_for(lambda m: "Practice 2/" in m.text, after=mark)
        assert h.count("SELECT answered FROM practice_sets") == 1
        assert not handler_errors(caplog)


async def test_a_standings_tap_too_old_to_answer_still_switches_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with bot_at(tmp_path) as h:
        admin = h.emu.user(5105, "Ada")
        group = h.emu.group(-5105, "Study group")
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        mark = group.mark()
        await admin.send("/top", chat=group)
        table = await group.wait_for(lambda m: "Standings" in m.text, after=mark)
        h.emu.faults.add("answerCallbackQuery", "query_too_old")
        mark = group.mark()
        await admin.tap(table, "All time", wait=False)
        await group.wait_for(
            lambda m: m.message_id == table.message_id and "Standings: All time" in m.text
        )
        assert not [m for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert not handler_errors(caplog)
