"""Every kind of button is refused outside the chat type it is made in.

Read from the callbacks table, so a kind is covered the day it is added: its data, naming the
tapper's own running quiz or the group's live run, forged into a chat of the other type, gets
the router's popup and changes nothing (the binding is a security property: a private button
must never act in a group, nor record a private chat as one)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import get_args

import pytest

from bot.core.limits import QUIZ_ID_MAX_CHARS
from bot.tg import callbacks as cb
from bot.tg.callback_codec import Kind, Letter, Place, Text
from tests.reliability.support import ReliableHarness, bot_at, handler_errors, start_quiz

QUIZ, GROUP = "gradient-accumulation", -7500
TABLES = ("users", "answers", "attempts", "groups", "group_runs", "review_items", "reminders")


def state(h: ReliableHarness) -> tuple[object, ...]:
    with sqlite3.connect(h.db_path) as conn:
        return tuple(conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in TABLES)


def example(kind: Kind, own_id: int) -> str:
    """Data of `kind` that would act on `own_id` (an attempt or run) and the group."""
    quiz_id = get_args(cb.QuizId)[1]
    values: list[object] = []
    for spec in kind.specs:
        if spec == quiz_id:
            values.append(QUIZ)
        elif isinstance(spec, Letter):
            values.append(spec.choices[0])
        elif isinstance(spec, Text):
            values.append(spec.chars[0] * spec.least)
        else:
            chat = spec.sign and spec.digits >= len(str(GROUP)) - 1  # a chat id, not a small index
            values.append(GROUP if chat else own_id if spec.digits == 12 else 0)
    assert len(QUIZ) <= QUIZ_ID_MAX_CHARS
    return cb.encode(kind.cls(*values))


async def test_every_kind_is_refused_in_the_other_chat_type(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with bot_at(tmp_path, question_seconds=60) as h:
        admin = h.emu.user(7031, "Admin")
        group = h.emu.group(GROUP, "Group")
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin)
        await start_quiz(admin)
        await admin.send(f"/push {QUIZ}", chat=group)
        question = await group.wait_for(lambda m: "Question 1/" in m.text and bool(m.buttons))
        for _ in range(500):  # the run's message id is stored just after it is sent
            if h.rows("SELECT 1 FROM group_runs WHERE question_message_id IS NOT NULL"):
                break
            await asyncio.sleep(0.01)
        ((attempt_id,),) = h.rows("SELECT id FROM attempts WHERE kind = 'private'")
        ((run_id,),) = h.rows("SELECT id FROM attempts WHERE kind = 'group'")
        own = admin.private.messages[-1]

        before = state(h)
        for kind in cb.TABLE.by_class.values():
            if kind.place is Place.GROUP:
                data = example(kind, run_id)
                reply = await admin.tap(own, callback_data=data)
                expected = "This button has expired."
            else:
                data = example(kind, attempt_id)
                reply = await admin.tap(question, callback_data=data)
                expected = "This button works in a private chat with me."
            assert reply is not None and reply.text == expected, data
        assert state(h) == before
        assert not handler_errors(caplog)
