"""Two workers as on two hosts (each told it is its host's only worker), a fan-out of group
runs through Telegram's real flood limits: not one 429. Each host alone would pace at the bot's
whole rate; only the schedule they share (bot/tg/shared_pace.py) keeps them together under it.

Run by tests/workers/test_two_hosts.py in a process of its own
(`python -m tests.workers.hosts_scenario DSN`), as tests/workers/workers_scenario.py is.
"""

from __future__ import annotations

import asyncio

from bot.bench.webhook import Bridge, Workers
from bot.emulator import Emulator, FloodLimits

TOKEN = "123456:TEST-hosts-token"
QUIZ = "gradient-accumulation"
GROUPS = 40
WAIT = 90.0  # generous: two workers, PostgreSQL and the emulator share two cores


async def scenario(dsn: str) -> None:
    """Raises AssertionError (or a timeout) when something is wrong."""
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        workers = Workers(emu, TOKEN, dsn, 2, seconds=3, hosts=2)
        workers.start()
        bridge = Bridge(emu, TOKEN, workers.port)
        try:
            await asyncio.wait_for(workers.ready(), 60)
            bridge.start()
            admin = emu.user(5000, "Ada", language_code="en")
            groups = []
            for i in range(GROUPS):
                group = emu.group(-100700 - i, f"Host group {i}")
                group.add_member(admin, "creator")
                groups.append(group)
            # Fan-out 1: the bot joins every group at once, and greets each.
            for group in groups:
                await emu.add_bot_to_group(group, by=admin)
            for group in groups:
                await group.wait_for(lambda m: "/push" in m.text, timeout=WAIT)
            # Fan-out 2: a run in every group: intros, questions, reveals, next questions.
            for group in groups:
                await admin.send(f"/push {QUIZ}", chat=group)
            for group in groups:
                await group.wait_for(lambda m: "Question 2/" in m.text, timeout=WAIT)
        finally:
            await bridge.stop()
            codes = workers.stop()
        assert codes == [0, 0]
        assert emu.stats.flood_errors == 0, emu.stats.errors


if __name__ == "__main__":
    import os
    import sys

    os.environ.setdefault("PTB_TIMEDELTA", "true")
    asyncio.run(scenario(sys.argv[1]))
