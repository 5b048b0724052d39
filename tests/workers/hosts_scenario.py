"""Two workers as on two hosts (each told it is its host's only worker), a fan-out of group
runs through Telegram's real flood limits: not one 429, every acknowledged answer stored once,
every question posted once and revealed once. Each host alone would pace at the bot's
whole rate; only the schedule they share (bot/tg/wire/shared_pace.py) keeps them together under it.

Run by tests/workers/test_two_hosts.py in a process of its own
(`python -m tests.workers.hosts_scenario DSN`), as tests/workers/workers_scenario.py is.
"""

from __future__ import annotations

import asyncio
import random

import asyncpg

from bot.bench.webhook import Bridge, Workers
from bot.emulator import Emulator, FloodLimits
from bot.emulator.driver import ChatView, SimUser
from tests.workers.workers_scenario import _acknowledged, _letter, _tap, posted_and_revealed

TOKEN = "123456:TEST-hosts-token"
QUIZ = "gradient-accumulation"
GROUPS = 30
WAIT = 90.0  # generous: two workers, PostgreSQL and the emulator share two cores


async def scenario(dsn: str) -> None:
    """Raises AssertionError (or a timeout) when something is wrong."""
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        workers = Workers(emu, TOKEN, dsn, 2, seconds=2, hosts=2)
        workers.start()
        bridge = Bridge(emu, TOKEN, workers.port)
        try:
            await asyncio.wait_for(workers.ready(), 60)
            bridge.start()
            admin = emu.user(5000, "Ada", language_code="en")
            groups: list[tuple[ChatView, SimUser]] = []
            for i in range(GROUPS):
                group = emu.group(-100700 - i, f"Host group {i}")
                group.add_member(admin, "creator")
                member = emu.user(5200 + i, f"M{i}", language_code="en")
                group.add_member(member, "member")
                groups.append((group, member))
            # Fan-out 1: the bot joins every group at once, and greets each.
            for group, _ in groups:
                await emu.add_bot_to_group(group, by=admin)
            for group, _ in groups:
                await group.wait_for(lambda m: "/push" in m.text, timeout=WAIT)
            # Fan-out 2: a run in every group: intros, questions and their reveals; a member
            # of each answers question 1.
            for group, _ in groups:
                await admin.send(f"/push {QUIZ}", chat=group)

            rng, acks = random.Random(20), set[int]()

            async def answer_first(group: ChatView, member: SimUser) -> None:
                question = await group.wait_for(lambda m: "Question 1/" in m.text, timeout=WAIT)
                if _acknowledged(await _tap(member, question, _letter(question, rng))):
                    acks.add(member.id)
                await group.wait_for(  # its reveal: question 1 edited, buttons gone
                    lambda m: m.message_id == question.message_id and m.edited, timeout=WAIT
                )

            await asyncio.gather(*(answer_first(g, m) for g, m in groups))
        finally:
            await bridge.stop()
            codes = workers.stop()
        assert codes == [0, 0]
        assert emu.stats.flood_errors == 0, emu.stats.errors
        conn = await asyncpg.connect(dsn)
        try:
            rows = await conn.fetch(
                "SELECT user_id, count(*) AS n FROM answers WHERE question_index = 0 "
                "GROUP BY user_id"
            )
        finally:
            await conn.close()
        stored = {r["user_id"]: r["n"] for r in rows}
        assert acks and acks <= set(stored) and set(stored.values()) == {1}, stored
        for group, _ in groups:
            posted, revealed = posted_and_revealed(group)
            assert posted.get(1) == 1 and revealed.get(1) == 1, (posted, revealed)


if __name__ == "__main__":
    import os
    import sys

    os.environ.setdefault("PTB_TIMEDELTA", "true")
    asyncio.run(scenario(sys.argv[1]))
