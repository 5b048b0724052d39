"""Sending limits shared by every worker, and the registry of live workers they are shared by.

Telegram limits a bot as a whole: about 30 messages a second overall and 20 a minute per group.
Each worker keeps its own wire-paced limiter (bot/tg/ratelimit.py) and the two limits are
shared in the two ways that fit them:

* **Overall: a static share.** Each worker paces at `rate / N` with `N` the live workers
  (`Workers.count`). The per-worker limiter guarantees its window *as the server sees it* (it
  counts a send until a period after its response); the sum of N such windows stays under the
  bot's, which a shared counter with one trip per send could not promise without a second trip
  per response. What it costs: an idle worker's share is unused, and the fan-out, whose timers
  every worker claims alike, keeps all of them busy.
* **Per chat: one shared slot per chat.** A group's sends come from whichever worker handles its
  command or claims its timer, so a per-worker count would let N workers send N × 20 a minute.
  `SendSlots.reserve` books the chat's next slot in PostgreSQL in one statement (GCRA: the
  row holds the theoretical time of the chat's next send), returning how long to wait for it.
"""

from __future__ import annotations

import asyncpg


class SendSlots:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def reserve(self, key: str, interval: float, burst: int = 1) -> float:
        """Book the next send of `key`; the seconds to wait before sending (0: now).

        `interval` is the steady spacing, `burst` how many may go back to back after a pause.
        """
        tolerance = (burst - 1) * interval
        row = await self.pool.fetchrow(
            """INSERT INTO work_send_slots AS s (key, tat)
               VALUES ($1, extract(epoch FROM clock_timestamp())::float8 + $2)
               ON CONFLICT (key) DO UPDATE SET tat = greatest(s.tat + $2, excluded.tat)
               RETURNING tat, extract(epoch FROM clock_timestamp())::float8""",
            key,
            interval,
        )
        assert row is not None  # an upsert with RETURNING always returns its row
        tat, now = float(row[0]), float(row[1])
        # The slot is max(now, tat_before - tolerance), and tat_after = max(tat_before, now) + T.
        return max(0.0, tat - interval - tolerance - now)


class Workers:
    """Live workers: each `beat`s with its lease renewals; one silent for `stale` is gone."""

    def __init__(self, pool: asyncpg.Pool, name: str, stale: float = 30.0) -> None:
        self.pool, self.name, self.stale = pool, name, stale

    async def beat(self) -> None:
        await self.pool.execute(
            """INSERT INTO work_workers (name) VALUES ($1)
               ON CONFLICT (name) DO UPDATE SET seen_at = clock_timestamp()""",
            self.name,
        )

    async def leave(self) -> None:
        await self.pool.execute("DELETE FROM work_workers WHERE name = $1", self.name)

    async def count(self) -> int:
        """Live workers, this one included (at least 1)."""
        n = await self.pool.fetchval(
            """SELECT count(*) FROM work_workers
               WHERE seen_at > clock_timestamp() - make_interval(secs => $1)""",
            self.stale,
        )
        return max(1, int(n))
