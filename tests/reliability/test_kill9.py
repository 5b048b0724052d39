"""kill -9 of the bot process in the middle of a burst of answers, then a restart on the same
database: every answer whose verdict popup a user saw is stored, none twice, and everyone's quiz
continues at the right question; a group run resumes and closes with its results."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import defaultdict
from pathlib import Path

from bot.emulator import Emulator, EmuMessage, SimUser, TapTimeout
from tests.e2e.harness import TOKEN
from tests.reliability.support import VERDICT, BotProcess, buttons, content_copy, shipped_length

USERS = 16
KILL_AFTER = 40  # verdict popups seen across all users before the kill
QUIZ = "gradient-checkpointing"


async def learner(user: SimUser, seen: dict[int, set[int]], popups: asyncio.Event,
                  total: list[int]) -> None:  # fmt: skip
    """Answer question after question as fast as the bot allows, noting each verdict seen."""
    chat = user.private
    mark = chat.mark()
    await user.send(f"/start {QUIZ}")
    length = shipped_length(QUIZ)
    question = await chat.wait_for(lambda m: f"1/{length}" in m.text, after=mark, timeout=10)
    for index in range(length):
        if not question.buttons:  # a typed (number) question: the burst is about taps
            return
        mark = chat.mark()
        answer = await user.tap(question, "ABCD"[index % 4], timeout=10)
        if answer is not None and (answer.text or "").startswith(VERDICT):
            seen[user.id].add(index)
            total[0] += 1
            if total[0] >= KILL_AFTER:
                popups.set()
        explanation = await chat.wait_for(
            lambda m: any("▶" in b for b in buttons(m)), after=mark, timeout=10
        )
        mark = chat.mark()
        await user.tap(explanation, buttons(explanation)[0], timeout=10)
        question = await chat.next_message(after=mark, timeout=10)


def answered(db: Path) -> dict[int, list[int]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT a.user_id, a.question_index FROM answers a JOIN attempts t "
            "ON t.id = a.attempt_id WHERE t.kind = 'private' ORDER BY a.question_index"
        ).fetchall()
    found: dict[int, list[int]] = defaultdict(list)
    for user_id, index in rows:
        found[user_id].append(index)
    return found


async def settle(emu: Emulator, seconds: float = 0.5) -> None:
    """Wait until the bot has taken every queued update and gone quiet for a moment."""
    for _ in range(200):
        if emu.pending_updates == 0:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(seconds)


async def test_kill9_mid_burst_keeps_every_seen_answer(tmp_path: Path) -> None:
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = BotProcess(tmp_path, emu, tmp_path / "quizbot.sqlite3")
        bot.start()
        try:
            await bot.ready()
            users = [emu.user(7001 + i, f"L{i}", language_code="en") for i in range(USERS)]
            seen: dict[int, set[int]] = defaultdict(set)
            popups, total = asyncio.Event(), [0]
            tasks = [asyncio.create_task(learner(u, seen, popups, total)) for u in users]
            await asyncio.wait_for(popups.wait(), 30)
            bot.kill9()
            snapshot = {uid: set(indexes) for uid, indexes in seen.items()}
            for task in tasks:
                task.cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            assert not [r for r in results if isinstance(r, Exception)
                        and not isinstance(r, (TapTimeout, TimeoutError))]  # fmt: skip

            stored = answered(bot.db)  # read before the restart: what the kill left on disk
            for user_id, indexes in snapshot.items():
                assert indexes <= set(stored[user_id]), (user_id, indexes, stored[user_id])
            for user_id, indexes in stored.items():
                assert len(indexes) == len(set(indexes)), f"user {user_id} answered twice"

            bot.start()
            await bot.ready()
            await settle(emu)  # taps queued while the bot was dead are handled now
            stored = answered(bot.db)
            with sqlite3.connect(bot.db) as conn:
                assert conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == USERS
                assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            for user in users:
                indexes = stored[user.id]
                assert len(indexes) == len(set(indexes)) and seen[user.id] <= set(indexes)
                await resumes_at(user, len(indexes) + 1)
        finally:
            await bot.stop()
        assert TOKEN not in bot.output()


async def resumes_at(user: SimUser, k: int) -> None:
    """/start offers Continue at question k, and Continue shows it."""
    chat = user.private
    mark = chat.mark()
    await user.send("/start")
    offer: EmuMessage = await chat.wait_for(lambda m: len(m.buttons) == 2, after=mark)
    assert f"question {k} of {shipped_length(QUIZ)}" in offer.text, (user.id, offer.text)
    mark = chat.mark()
    await user.tap(offer, offer.buttons[0][0].text)
    await chat.wait_for(lambda m: f"{k}/{shipped_length(QUIZ)}" in m.text, after=mark)


async def test_kill9_mid_group_run_resumes_and_closes_with_results(tmp_path: Path) -> None:
    content = content_copy(tmp_path / "content", questions=2)
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = BotProcess(tmp_path, emu, tmp_path / "quizbot.sqlite3", content=content,
                         env={"QUIZBOT_QUESTION_SECONDS": "2"})  # fmt: skip
        bot.start()
        try:
            await bot.ready()
            admin = emu.user(7101, "Ada", language_code="en")
            group = emu.group(-7100, "Kill nine")
            group.add_member(admin, "creator")
            members = [emu.user(7102 + i, f"M{i}", language_code="en") for i in range(4)]
            for member in members:
                group.add_member(member)
            await emu.add_bot_to_group(group, by=admin)
            await group.wait_for(lambda m: "/push" in m.text, timeout=10)
            await admin.send(f"/push {QUIZ}", chat=group)
            q1 = await group.wait_for(lambda m: "Question 1/2" in m.text, timeout=10)
            seen = []
            for member in members[:3]:
                answer = await member.tap(q1, "A", timeout=10)
                if answer is not None and (answer.text or "").startswith(VERDICT):
                    seen.append(member.id)
            assert seen
            bot.kill9()
            bot.start()
            await bot.ready()
            # Q1's deadline passed while the bot was dead, or passes now: either way the run
            # goes on to its end and posts the results.
            q2 = await group.wait_for(lambda m: "Question 2/2" in m.text, timeout=15)
            await members[3].tap(q2, "B", timeout=10)
            await group.wait_for(lambda m: "🏁" in m.text,
                                 timeout=15)  # fmt: skip
            with sqlite3.connect(bot.db) as conn:
                rows = conn.execute(
                    "SELECT a.user_id, a.question_index FROM answers a JOIN attempts t "
                    "ON t.id = a.attempt_id WHERE t.kind != 'private'"
                ).fetchall()
            assert {(uid, 0) for uid in seen} <= set(rows)
            assert len(rows) == len(set(rows))
        finally:
            await bot.stop()
