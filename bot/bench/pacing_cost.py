"""What sharing the sending limits through PostgreSQL costs per send (`quizbot bench scaling`).

Each counted send of a worker books its chat's slot (`SendSlots.reserve`, one statement) and
takes a slot of the bot's overall schedule (`BotSchedule.lease`, one statement per lease of up
to 4 slots: bot/tg/wire/shared_pace.py). Two pools stand for two workers (or hosts) doing it at once
on the same rows, closed loop, against the benchmark's durable server: the time per statement
is the latency a send pays before it leaves, and the statements per second what one hot row
serves (Telegram allows a bot 30 sends a second).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable

import asyncpg

from bot.store.pg.cluster import Cluster
from bot.store.pg.pacing import BotSchedule, SendSlots
from bot.store.pg.schema import WORK, migrate

CALLS = 2000  # per worker and statement kind


async def _timed(calls: list[Callable[[], Awaitable[object]]]) -> tuple[float, float]:
    """(mean µs per call, calls per second) of the callables run together, CALLS times each."""

    async def loop(call: Callable[[], Awaitable[object]]) -> list[float]:
        spent = []
        for _ in range(CALLS):
            t0 = time.perf_counter()
            await call()
            spent.append(time.perf_counter() - t0)
        return spent

    t0 = time.perf_counter()
    spent = [s for part in await asyncio.gather(*(loop(c) for c in calls)) for s in part]
    wall = time.perf_counter() - t0
    return 1e6 * sum(spent) / len(spent), len(spent) / wall


async def measure(cluster: Cluster) -> list[str]:
    conn = await asyncpg.connect(cluster.dsn())
    try:
        await conn.execute("DROP DATABASE IF EXISTS pacing")
        await conn.execute("CREATE DATABASE pacing")
    finally:
        await conn.close()
    pools = [await asyncpg.create_pool(cluster.dsn("pacing"), min_size=1, max_size=1)]
    async with pools[0].acquire() as c:
        await migrate(c, (WORK,))
    pools.append(await asyncpg.create_pool(cluster.dsn("pacing"), min_size=1, max_size=1))
    try:
        schedules = [BotSchedule(p) for p in pools]
        slots = [SendSlots(p) for p in pools]
        tiny = 1e-6  # slot spacing: the rows change as in use, nobody waits for a slot

        def leases(k: int) -> list[Callable[[], Awaitable[object]]]:
            return [functools.partial(s.lease, k, tiny) for s in schedules]

        lease1 = await _timed(leases(1))
        lease4 = await _timed(leases(4))
        chat = await _timed(
            [functools.partial(s.reserve, f"c-{i}", tiny, 1) for i, s in enumerate(slots)]
        )
    finally:
        for p in pools:
            await p.close()
    per_send_busy = chat[0] + lease4[0] / 4
    return [
        "shared pacing, 2 workers at once on one server (closed loop):",
        "",
        "| statement | µs per call | calls/s (both) |",
        "|---|---|---|",
        f"| bot schedule, lease of 1 slot | {lease1[0]:.0f} | {lease1[1]:.0f} |",
        f"| bot schedule, lease of 4 slots | {lease4[0]:.0f} | {lease4[1]:.0f} |",
        f"| a chat's slot | {chat[0]:.0f} | {chat[1]:.0f} |",
        "",
        f"per send: {chat[0] + lease1[0]:.0f} µs idle (lease of 1), "
        f"{per_send_busy:.0f} µs in a fan-out (leases of 4)",
    ]
