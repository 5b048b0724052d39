"""Every button is bound to the chat type, the chat and the user it was made for.

Callback data is attacker-controlled (a modified client sends any string): a group's answer
button tapped from another chat, a private button forged in a group, or data we never made
must each get a short popup and change nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.emulator import ChatView, EmuMessage, SimUser
from tests.reliability.support import (
    VERDICT,
    ReliableHarness,
    bot_at,
    buttons,
    handler_errors,
    no_leak,
    start_quiz,
)

QUIZ = "gradient-accumulation"
TABLES = ("users", "answers", "attempts", "groups", "group_runs", "review_items", "reminders")


def state(h: ReliableHarness) -> tuple[object, ...]:
    with sqlite3.connect(h.db_path) as conn:
        return tuple(conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in TABLES)


async def joined_group(h: ReliableHarness, chat_id: int, admin: SimUser) -> ChatView:
    group = h.emu.group(chat_id, f"Group {chat_id}")
    group.add_member(admin, "creator")
    await h.emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text)
    return group


async def live_question(h: ReliableHarness, group: ChatView, admin: SimUser) -> EmuMessage:
    await admin.send(f"/push {QUIZ}", chat=group)
    question = await group.wait_for(lambda m: "Question 1/" in m.text and bool(m.buttons))
    # The bot stores the question's message id just after sending it: wait for that write, so
    # a snapshot taken now is the state that forged taps must leave alone.
    for _ in range(500):
        if h.rows("SELECT 1 FROM group_runs WHERE question_message_id IS NOT NULL"):
            return question
        await asyncio.sleep(0.01)
    raise AssertionError("the question's message id was never stored")


def shown(message: EmuMessage) -> tuple[str, list[str]]:
    return message.text, buttons(message)


async def test_group_answers_only_count_from_the_runs_own_chat(tmp_path: Path) -> None:
    async with bot_at(tmp_path, question_seconds=60) as h:
        admin_g, admin_h = h.emu.user(7001, "AdminG"), h.emu.user(7002, "AdminH")
        intruder = h.emu.user(7003, "Intruder")
        group_g = await joined_group(h, -7100, admin_g)
        group_h = await joined_group(h, -7200, admin_h)
        group_h.add_member(intruder)
        question = await live_question(h, group_g, admin_g)
        ((run_id,),) = h.rows("SELECT id FROM attempts WHERE kind = 'group'")
        in_h = group_h.bot_messages[-1]
        await intruder.send("/help")
        own = await intruder.private.wait_for(lambda m: "/quizzes" in m.text)

        before = state(h)
        for message in (in_h, own):
            for position in range(len(question.buttons[0])):
                reply = await intruder.tap(message, callback_data=f"g:{run_id}:0:{position}")
                assert reply is not None and reply.text, (message.chat_id, position)
                assert not reply.text.startswith(VERDICT), reply.text
                assert not reply.show_alert  # no explanation either
        assert state(h) == before
        reply = await intruder.tap(in_h, callback_data=f"g:{run_id}:0:0")
        assert reply is not None and "another chat" in (reply.text or "")
        assert shown(group_g.message(question.message_id)) == shown(question)

        # Whoever sees the message in the run's own chat may answer (no membership check).
        viewer = h.emu.user(7004, "Viewer")
        answer = await viewer.tap(question, "A")
        assert answer is not None and (answer.text or "").startswith(VERDICT)

        mark = group_g.mark()
        await admin_g.send("/stop", chat=group_g)
        results = await group_g.wait_for(lambda m: "stopped" in m.text, after=mark)
        assert "Intruder" not in results.text and "Viewer" in results.text
        assert h.rows("SELECT user_id FROM answers") == [(viewer.id,)]
        assert all(no_leak(m.text) for m in group_g.messages + group_h.messages)


PRIVATE_KINDS = [
    "lang:en", "lang:fr", f"quiz:{QUIZ}", f"go:{QUIZ}", "list", "rvn",
    "ans:{attempt}:0:0", "next:{attempt}:1", "cont:{attempt}", "stop:{attempt}",
    "rev:{attempt}", "rva:1:0:1:0123:0", "rvs:1:1", "rvp:7012", "tz:7012:1",
    "tzs:7012:Europe/Paris", "rmr:7012",
]  # fmt: skip


async def test_private_buttons_forged_in_a_group_change_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with bot_at(tmp_path, question_seconds=60) as h:
        admin = h.emu.user(7011, "Admin")
        member = h.emu.user(7012, "Member", language_code="fr")
        group = await joined_group(h, -7300, admin)
        group.add_member(member)
        # The member has a private quiz running: its buttons must not work from the group.
        await start_quiz(member)
        ((attempt_id,),) = h.rows("SELECT id FROM attempts WHERE kind = 'private'")
        question = await live_question(h, group, admin)
        group_before = [shown(m) for m in group.messages]
        private_before = len(member.private.messages)

        before = state(h)
        for template in PRIVATE_KINDS:
            data = template.format(attempt=attempt_id)
            reply = await member.tap(question, callback_data=data)
            assert reply is not None and reply.text, data
            # In the tapper's language (French), not the group's.
            assert "discussion privée" in reply.text, (data, reply.text)
        assert state(h) == before
        assert [shown(m) for m in group.messages] == group_before  # buttons kept, nothing posted
        assert shown(group.message(question.message_id)) == shown(question)
        assert len(member.private.messages) == private_before
        assert not handler_errors(caplog)

        # The live question still takes answers.
        answer = await member.tap(question, "A")
        assert answer is not None and (answer.text or "").startswith(VERDICT)


FORGED = ["zzz", "g:1", "g:x:0:0", "set:1", "lang:xx", "ans:1:2", "rva:1:0:0", "list:",
          "set:-7400:lang:fr:x", "g:999999:0:0", "\u202e", "go:" + "x" * 40]  # fmt: skip


async def test_unknown_callbacks_anywhere_get_a_popup_and_change_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with bot_at(tmp_path, question_seconds=60) as h:
        admin = h.emu.user(7021, "Admin")
        group = await joined_group(h, -7400, admin)
        question = await live_question(h, group, admin)
        await admin.send("/help")
        own = await admin.private.wait_for(lambda m: "/quizzes" in m.text)
        before, group_before = state(h), [shown(m) for m in group.messages]
        for message in (question, own):
            for data in FORGED:
                reply = await admin.tap(message, callback_data=data)
                assert reply is not None and reply.text, (message.chat_id, data)
                assert no_leak(reply.text) and not reply.text.startswith(VERDICT)
        assert state(h) == before
        assert [shown(m) for m in group.messages] == group_before
        assert not handler_errors(caplog)
