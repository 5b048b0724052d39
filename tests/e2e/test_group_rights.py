"""The bot's own rights in a group change under a run: an admin takes away its right to send
(Telegram then refuses every send with "not enough rights to send text messages to the chat")
and later gives it back. Like a closed topic, the refused send ends the run, its answers kept,
so that the group is not left with a run nobody can see and nobody can replace."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tests.e2e.groups_kit import QUIZ, group_bot, make_group, schedule_jobs


async def test_a_bot_muted_mid_run_ends_the_run_and_plays_again_once_it_may_send(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with group_bot(tmp_path, seconds=1, clock_timers=True) as h:
        group, admin = await make_group(h)
        awa = h.emu.user(2001, "Awa")
        group.add_member(awa)
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        await awa.tap(q1, "A")
        await h.emu.set_bot_status(group, "restricted", by=admin)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            # Q1's time is up: its reveal (an edit, still allowed), then Q2, refused.
            await h.next_timer()
            assert h.attempt_statuses() == [("abandoned",)]
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
        answers = h.rows("SELECT user_id FROM answers")
        assert answers == [(awa.id,)]  # the answer given is kept

        await h.emu.set_bot_status(group, "member", by=admin)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        intro = await group.next_message(after=mark)
        assert "Group quiz" in intro.text, intro.text
        await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark)


async def test_a_push_while_the_bot_is_muted_leaves_no_run_behind(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1, clock_timers=True) as h:
        group, admin = await make_group(h)
        await h.emu.set_bot_status(group, "restricted", by=admin)
        await admin.send(f"/push {QUIZ}", chat=group)
        for _ in range(100):  # the refused intro ends the run it opened
            if h.attempt_statuses() == [("abandoned",)]:
                break
            await asyncio.sleep(0.02)
        assert h.attempt_statuses() == [("abandoned",)]

        await h.emu.set_bot_status(group, "member", by=admin)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        intro = await group.next_message(after=mark)
        assert "Group quiz" in intro.text, intro.text


async def test_a_schedule_due_while_the_bot_is_muted_plays_at_its_next_time(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=0.5, questions=1) as h:
        assert h.bot is not None
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send("/schedule next weekdays 08:30", chat=group)
        await group.next_message(after=mark)
        (job,) = schedule_jobs(h.bot)
        await h.emu.set_bot_status(group, "restricted", by=admin)
        await job.run(h.bot.app)
        assert h.attempt_statuses() == [("abandoned",)]
        assert h.schedule_topics_gone() == [(0,)]  # no topic to blame

        await h.emu.set_bot_status(group, "member", by=admin)
        mark = group.mark()
        await job.run(h.bot.app)  # not "skipped: another quiz is still running"
        board = await group.wait_for(lambda m: "finished" in m.text, after=mark, timeout=5)
        assert "skipped" not in "\n".join(m.text for m in group.bot_messages)
        assert h.attempt_statuses() == [("abandoned",), ("finished",)], board.text
