"""SIGTERM during group runs: the bot stops taking updates, lets the steps in flight finish,
then closes the store; no ERROR and no traceback; the next start resumes every run.

Two groups, each with a run. Group A's reveal is on the wire (held by the emulator) when the
signal comes; group B's question runs out while A's reveal is still held, and B's own reveal
would be held longer still. Before the fix, B's timer fired during the stop, was cancelled
mid-flight or reached the store after it was closed."""

from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path

import pytest

from bot.emulator import ChatView, Emulator, SimUser
from bot.tg import app as app_module
from tests.e2e.groups_kit import group_bot, make_group
from tests.e2e.harness import TOKEN
from tests.reliability.support import BotProcess, content_copy

QUIZ = "gradient-accumulation"


async def group_with_admin(emu: Emulator, chat_id: int, admin: SimUser) -> ChatView:
    group = emu.group(chat_id, f"Group {chat_id}")
    group.add_member(admin, "creator")
    await emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text, timeout=10)
    return group


async def test_sigterm_during_group_runs_stops_cleanly_and_runs_resume(tmp_path: Path) -> None:
    content = content_copy(tmp_path / "content", questions=2)
    db = tmp_path / "quizbot.sqlite3"
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = BotProcess(tmp_path, emu, db, content=content,
                         env={"QUIZBOT_QUESTION_SECONDS": "2"})  # fmt: skip
        bot.start()
        await bot.ready()
        admin = emu.user(1001, "Ada")
        a = await group_with_admin(emu, -100701, admin)
        b = await group_with_admin(emu, -100702, admin)
        held_a = emu.faults.add("editMessageText", "delay", chat_id=a.id, delay=3)
        emu.faults.add("editMessageText", "delay", chat_id=b.id, delay=6)
        await admin.send(f"/push {QUIZ}", chat=a)
        await a.wait_for(lambda m: "Question 1/2" in m.text, timeout=10)
        await asyncio.sleep(0.5)  # B's question runs out half a second after A's
        await admin.send(f"/push {QUIZ}", chat=b)
        await b.wait_for(lambda m: "Question 1/2" in m.text, timeout=10)
        while held_a.hits == 0:  # A's reveal is on the wire
            await asyncio.sleep(0.02)
        assert bot.proc is not None
        bot.proc.send_signal(signal.SIGTERM)
        assert await bot.exit_code(timeout=30) == 0
        first_run = bot.output()
        assert "ERROR" not in first_run and "Traceback" not in first_run, first_run
        assert "database is not open" not in first_run, first_run

        emu.faults.clear()
        bot.start()
        await bot.ready()
        for group in (a, b):
            await group.wait_for(lambda m: m.text.startswith("🏁"), timeout=20)
        await bot.stop()
        everything = bot.output()
        assert "ERROR" not in everything and "Traceback" not in everything, everything


async def test_a_step_past_the_grace_is_cancelled_quietly_and_resumes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "STOP_GRACE", 0.3)
    caplog.set_level(logging.INFO)
    async with group_bot(tmp_path, seconds=1.0) as h:
        group, admin = await make_group(h)
        held = h.emu.faults.add("editMessageText", "delay", chat_id=group.id, delay=5)
        await admin.send(f"/push {QUIZ}", chat=group)
        await group.wait_for(lambda m: "Question 1/2" in m.text, timeout=10)
        while held.hits == 0:  # the reveal is on the wire, held far past the grace
            await asyncio.sleep(0.02)
        await h.stop_bot()
        assert any("still running" in r.getMessage() for r in caplog.records)
        h.emu.faults.clear()
        await h.start_bot()
        await group.wait_for(lambda m: m.text.startswith("🏁"), timeout=20)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
