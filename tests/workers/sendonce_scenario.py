"""Send-once: the worker running a group run dies (SIGKILL) after question 1 was sent and before
its message id was recorded. The worker that takes over does not send it again: the group sees
question 1 once and its reveal once (as a message of its own), then question 2; every
acknowledged answer is stored once; no 429.

The emulator makes the window wide instead of the bot carrying a test-only hook: it handles the
question's sendMessage (the message is in the chat) and holds the response back, and the test
kills the worker while it waits. Short question time and watchdog (`--watchdog`: how soon a run
whose worker died is resumed elsewhere) keep it to seconds. Run by tests/workers/test_send_once.py
in a process of its own (`python -m tests.workers.sendonce_scenario DSN`).
"""

from __future__ import annotations

import asyncio
import random

import asyncpg

from bot.bench.webhook import Bridge, Workers
from bot.emulator import Emulator, FloodLimits
from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
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
WAIT = 60.0  # generous: the workers, PostgreSQL and the emulator share two cores


def _asked(n: int) -> object:
    return lambda m: is_question(m) and f"Question {n}/" in m.text


async def scenario(dsn: str) -> None:
    """Raises AssertionError (or a timeout) when something is wrong."""
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        workers = Workers(emu, TOKEN, dsn, 1, seconds=2, watchdog=4)
        workers.start()
        bridge = Bridge(emu, TOKEN, workers.port)
        acks: set[int] = set()
        try:
            await asyncio.wait_for(workers.ready(), WAIT)
            bridge.start()
            admin = emu.user(5000, "Ada", language_code="en")
            group = emu.group(GROUP, "Send-once group")
            group.add_member(admin, "creator")
            members = [emu.user(5101 + i, f"M{i}", language_code="en") for i in range(2)]
            for m in members:
                group.add_member(m, "member")
            await emu.add_bot_to_group(group, by=admin)
            await group.wait_for(lambda m: "/push" in m.text, timeout=WAIT)
            mark = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group)
            await group.wait_for(lambda m: True, after=mark, timeout=WAIT)  # the intro
            # Question 1 reaches the chat; its response is held past the worker's death.
            emu.faults.add("sendMessage", "timeout", chat_id=GROUP, delay=60, handled=True)
            question = await group.wait_for(_asked(1), timeout=WAIT)  # type: ignore[arg-type]
            workers.kill(0)
            workers.start()  # the worker that takes over (another host, or a restart)

            async def answer(user: SimUser, message: EmuMessage) -> None:
                if _acknowledged(await _tap(user, message, _letter(message, random.Random()))):
                    acks.add(user.id)

            # Its buttons work without the recorded id; the taps wait in the inbox meanwhile.
            await asyncio.gather(*(answer(u, question) for u in members))
            await group.wait_for(_asked(2), timeout=WAIT)  # type: ignore[arg-type]
        finally:
            await bridge.stop()
            codes = workers.stop()
        assert codes[1:] == [0]  # the worker that took over stops cleanly

        conn = await asyncpg.connect(dsn)
        try:
            rows = await conn.fetch(
                "SELECT user_id, count(*) AS n FROM answers WHERE question_index = 0 "
                "GROUP BY user_id"
            )
        finally:
            await conn.close()
        stored = {r["user_id"]: r["n"] for r in rows}
        assert acks <= set(stored) and set(stored.values()) <= {1}, (acks, stored)
        posted, revealed = posted_and_revealed(group)
        assert posted == {1: 1, 2: 1}, posted  # question 1 in the chat once
        assert revealed.get(1) == 1, revealed  # and revealed once
        assert emu.stats.flood_errors == 0, emu.stats.errors


if __name__ == "__main__":
    import os
    import sys

    os.environ.setdefault("PTB_TIMEDELTA", "true")
    asyncio.run(scenario(sys.argv[1]))
