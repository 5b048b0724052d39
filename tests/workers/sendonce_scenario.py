"""Send-once: the host running a group run dies (SIGKILL, both workers) after a question was
sent and before its message id was recorded. The workers that take over do not send it again:
the group sees every question once and every reveal once (the unrecorded question's reveal as a
message of its own), the run completes, every acknowledged answer is stored once, no 429.

The emulator makes the window wide instead of the bot carrying a test-only hook: it handles the
question's sendMessage (the message is in the chat) and holds the response back, and the test
kills the workers while they wait for it. Run by tests/workers/test_send_once.py in a process of
its own (`python -m tests.workers.sendonce_scenario DSN`).
"""

from __future__ import annotations

import asyncio
import random

import asyncpg

from bot.bench.webhook import Bridge, Workers
from bot.emulator import Emulator, FloodLimits
from bot.emulator.driver import ChatView, SimUser
from tests.workers.workers_scenario import (
    _acknowledged,
    _letter,
    _tap,
    is_question,
    posted_and_revealed,
)

TOKEN = "123456:TEST-sendonce-token"
QUIZ = "gradient-accumulation"
GROUP = -100950
WAIT = 90.0  # the watchdog that resumes the run elsewhere is 20 s; two cores are shared
HELD = 3  # the question whose response the emulator holds back (1-based)


async def _member(
    user: SimUser, group: ChatView, total: int, acks: set[tuple[int, int]], rng: random.Random
) -> None:
    for index in range(total):
        question = await group.wait_for(
            lambda m, i=index: is_question(m) and f"Question {i + 1}/{total}" in m.text,
            timeout=WAIT,
        )
        await asyncio.sleep(rng.random())
        if _acknowledged(await _tap(user, question, _letter(question, rng))):
            acks.add((user.id, index))


async def scenario(dsn: str) -> None:
    """Raises AssertionError (or a timeout) when something is wrong."""
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        workers = Workers(emu, TOKEN, dsn, 2, seconds=4)
        workers.start()
        bridge = Bridge(emu, TOKEN, workers.port)
        try:
            await asyncio.wait_for(workers.ready(), 60)
            bridge.start()
            admin = emu.user(5000, "Ada", language_code="en")
            group = emu.group(GROUP, "Send-once group")
            group.add_member(admin, "creator")
            members = [emu.user(5101 + i, f"M{i}", language_code="en") for i in range(4)]
            for m in members:
                group.add_member(m, "member")
            await emu.add_bot_to_group(group, by=admin)
            await group.wait_for(lambda m: "/push" in m.text, timeout=WAIT)
            await admin.send(f"/push {QUIZ}", chat=group)
            first = await group.wait_for(lambda m: "Question 1/" in m.text, timeout=WAIT)
            total = int(first.text.split("Question 1/", 1)[1].split()[0])
            acks: set[tuple[int, int]] = set()

            async def host_dies() -> None:
                await group.wait_for(lambda m: f"Question {HELD - 1}/" in m.text, timeout=WAIT)
                # The next question reaches the chat; its response is held past any retry.
                emu.faults.add("sendMessage", "timeout", chat_id=GROUP, delay=60, handled=True)
                await group.wait_for(
                    lambda m: is_question(m) and f"Question {HELD}/" in m.text, timeout=WAIT
                )
                for i in range(2):
                    workers.kill(i)
                workers.start()  # the workers that take over (another host, or a restart)

            await asyncio.gather(
                host_dies(),
                *(_member(u, group, total, acks, random.Random(u.id)) for u in members),
            )
            await group.wait_for(lambda m: "finished" in m.text, timeout=WAIT)
        finally:
            await bridge.stop()
            codes = workers.stop()
        assert codes[2:] == [0, 0]  # the workers that took over stop cleanly

        conn = await asyncpg.connect(dsn)
        try:
            rows = await conn.fetch(
                """SELECT an.user_id, an.question_index, count(*) AS n FROM answers an
                   GROUP BY an.user_id, an.question_index"""
            )
            runs = await conn.fetch("SELECT status FROM attempts WHERE kind = 'group'")
        finally:
            await conn.close()
        stored = {(r["user_id"], r["question_index"]): r["n"] for r in rows}
        assert all(n == 1 for n in stored.values()), stored
        assert acks <= set(stored)
        assert [r["status"] for r in runs] == ["finished"]

        posted, revealed = posted_and_revealed(group)
        every = {n: 1 for n in range(1, total + 1)}
        assert posted == every, posted  # each question in the chat once
        assert revealed == every, revealed  # and revealed once
        assert emu.stats.flood_errors == 0, emu.stats.errors


if __name__ == "__main__":
    import os
    import sys

    os.environ.setdefault("PTB_TIMEDELTA", "true")
    asyncio.run(scenario(sys.argv[1]))
