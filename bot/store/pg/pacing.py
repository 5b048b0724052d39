"""Sending limits shared by every worker on every host, and the registry of live workers.

Telegram limits a bot as a whole: about 30 messages a second overall and 20 a minute per group.
Each worker keeps its own wire-paced limiter (bot/tg/wire/ratelimit.py) and the two limits are
shared in the two ways that fit them:

* **Overall: one schedule for the bot.** `BotSchedule` is the bot's next free send slot in one
  row; a worker leases the next few slots in one statement and releases one counted request
  per slot (bot/tg/wire/shared_pace.py). Workers on any number of hosts then send, together, at the
  bot's rate, and an idle worker's share is not lost: a single busy group run may use all of it.
  (Before: each worker paced at `rate / N` for the N workers of its own host, which two hosts
  each running N workers exceeded twice over.)
* **Per chat: one shared slot per chat.** A group's sends come from whichever worker handles its
  command or claims its timer, so a per-worker count would let N workers send N × 20 a minute.
  `SendSlots.reserve` books the chat's next slot in PostgreSQL in one statement (GCRA: the
  row holds the theoretical time of the chat's next send), returning how long to wait for it.
"""

from __future__ import annotations

from typing import Any

import asyncpg

LIVE_WITHIN = 30.0  # seconds: a worker that renewed its row this recently is alive


async def live_workers(
    db: asyncpg.Pool | asyncpg.Connection[Any], within: float = LIVE_WITHIN
) -> int:
    """Workers that renewed their row (`Workers.beat`) within the last `within` seconds."""
    n = await db.fetchval(
        """SELECT count(*) FROM work_workers
           WHERE seen_at > clock_timestamp() - make_interval(secs => $1)""",
        within,
    )
    return int(n)


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

    async def spare(self, key: str, interval: float) -> bool:
        """Book `key`'s next send only if its slot is free now; False (nothing booked) if not.

        For a courtesy reply in a group (bot/core/courtesy.py): it never queues for a slot, so
        the run's next send waits at most one `interval` behind it."""
        row = await self.pool.fetchrow(
            """WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t)
               INSERT INTO work_send_slots AS s (key, tat)
               SELECT $1, now.t + $2 FROM now
               ON CONFLICT (key) DO UPDATE SET tat = excluded.tat
                   WHERE s.tat <= excluded.tat - $2
               RETURNING tat""",
            key,
            interval,
        )
        return row is not None


BOT = "*bot"  # the bot's overall schedule among the chats' slots (chat keys start with "c")


class BotSchedule:
    """The bot's overall sending schedule, one row shared by every worker on every host.

    GCRA again: the row holds the time of the bot's next free slot. `lease(k, interval)` books
    the next `k` slots in one statement and returns their offsets from the server's now; the
    worker releases one counted request per slot (bot/tg/wire/shared_pace.py). One UPDATE on one row
    per lease: PostgreSQL serialises the workers on its row lock for the statement's duration
    only (no transaction is held open), and the measured cost is in BENCHMARKS.md.
    """

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def lease(self, count: int, interval: float) -> list[float]:
        span = count * interval
        row = await self.pool.fetchrow(
            """INSERT INTO work_send_slots AS s (key, tat)
               VALUES ($1, extract(epoch FROM clock_timestamp())::float8 + $2)
               ON CONFLICT (key) DO UPDATE SET tat = greatest(s.tat + $2, excluded.tat)
               RETURNING tat, extract(epoch FROM clock_timestamp())::float8""",
            BOT,
            span,
        )
        assert row is not None  # an upsert with RETURNING always returns its row
        tat, now = float(row[0]), float(row[1])
        first = tat - span - now  # the slots are [tat - span, tat), `interval` apart
        return [max(0.0, first + i * interval) for i in range(count)]

    async def pause(self, seconds: float) -> None:
        """No slot before `seconds` from now (Telegram answered 429 to one of the workers)."""
        await self.pool.execute(
            """INSERT INTO work_send_slots AS s (key, tat)
               VALUES ($1, extract(epoch FROM clock_timestamp())::float8 + $2)
               ON CONFLICT (key) DO UPDATE SET tat = greatest(s.tat, excluded.tat)""",
            BOT,
            seconds,
        )


class Workers:
    """Live workers: each `beat`s with its lease renewals; one silent for `stale` is gone."""

    def __init__(self, pool: asyncpg.Pool, name: str, stale: float = LIVE_WITHIN) -> None:
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
        return max(1, await live_workers(self.pool, self.stale))
