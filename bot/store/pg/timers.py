"""One-shot timers shared by every worker: a run's reveal, its next question, a schedule's run.

PTB's JobQueue keeps jobs in one process's memory: with several workers a timer armed by one
would die with it, and a timer armed by each would fire N times. Here a timer is a row keyed by
what it does (`reveal:<run>:<question>`), so arming it again is still one timer. Once due, the
first worker to `claim` it (`FOR UPDATE SKIP LOCKED`, under a lease) fires it and then deletes it
(`fired`). A worker that dies before `fired` loses its lease and another fires it again: the
callbacks are written to be idempotent (a reveal is recorded by one conditional write that only
the first caller wins), so "claimed once per lease, effective once" is the guarantee.

Due times are in the bot's clock (seconds since the epoch, injectable in tests); leases in the
server's clock, so workers on hosts whose clocks disagree still agree on who holds what.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from bot.store.pg.inbox import CHANNEL  # NOTIFY'd with payload 't': a timer armed


@dataclass(frozen=True, slots=True)
class Timer:
    key: str
    due_at: float
    payload: str
    generation: int
    tries: int


class TimerQueue:
    def __init__(self, pool: asyncpg.Pool, name: str, lease: float = 10.0) -> None:
        self.pool, self.name, self.lease = pool, name, lease

    async def arm(self, key: str, due_at: float, payload: str = "") -> None:
        """Set (or move) the timer `key`; a worker holding its previous arming cannot delete it."""
        await self.pool.execute(
            """WITH armed AS (
                   INSERT INTO work_timers AS t (key, due_at, payload) VALUES ($1, $2, $3)
                   ON CONFLICT (key) DO UPDATE SET
                       due_at = excluded.due_at, payload = excluded.payload,
                       generation = t.generation + 1, worker = NULL, lease_until = NULL,
                       tries = 0
                   RETURNING key)
               SELECT pg_notify($4, 't') FROM armed""",
            key,
            due_at,
            payload,
            CHANNEL,
        )

    async def arm_daily(self, key: str, due_at: float, payload: str, keep_from: float) -> bool:
        """Arm a daily timer for `due_at`, unless it is armed already by the same rule
        (`payload`) for a moment not before `keep_from`: a worker's start arms every schedule
        again, and must neither move an occurrence missed while every worker was down (a
        worker plays it late) nor take a timer from the worker firing it. True if armed now."""
        armed = await self.pool.fetchval(
            """WITH armed AS (
                   INSERT INTO work_timers AS t (key, due_at, payload) VALUES ($1, $2, $3)
                   ON CONFLICT (key) DO UPDATE SET
                       due_at = excluded.due_at, payload = excluded.payload,
                       generation = t.generation + 1, worker = NULL, lease_until = NULL,
                       tries = 0
                   WHERE NOT (t.payload = excluded.payload AND t.due_at >= $5)
                   RETURNING key)
               SELECT count(pg_notify($4, 't')) FROM armed""",
            key,
            due_at,
            payload,
            CHANNEL,
            keep_from,
        )
        return bool(armed)

    async def arm_if_absent(self, key: str, due_at: float, payload: str = "") -> bool:
        """Arm `key` unless it is armed already (whatever its due time); True if armed now."""
        armed = await self.pool.fetchval(
            """WITH armed AS (
                   INSERT INTO work_timers (key, due_at, payload) VALUES ($1, $2, $3)
                   ON CONFLICT (key) DO NOTHING RETURNING key)
               SELECT count(pg_notify($4, 't')) FROM armed""",
            key,
            due_at,
            payload,
            CHANNEL,
        )
        return bool(armed)

    async def cancel(self, key: str) -> bool:
        result: str = await self.pool.execute("DELETE FROM work_timers WHERE key = $1", key)
        return result.split()[-1] != "0"

    async def cancel_prefix(self, prefix: str) -> int:
        """Cancel every timer whose key starts with `prefix` (a run stopped, a group left)."""
        result: str = await self.pool.execute(
            "DELETE FROM work_timers WHERE starts_with(key, $1)", prefix
        )
        return int(result.split()[-1])

    async def claim_due(self, now: float, limit: int = 32) -> list[Timer]:
        """Timers due by `now` that no live worker holds, now held by this one."""
        rows = await self.pool.fetch(
            """WITH picked AS (
                   SELECT key FROM work_timers
                   WHERE due_at <= $2
                     AND (lease_until IS NULL OR lease_until < clock_timestamp())
                   ORDER BY due_at LIMIT $3
                   FOR UPDATE SKIP LOCKED)
               UPDATE work_timers t SET worker = $1, tries = t.tries + 1,
                   lease_until = clock_timestamp() + make_interval(secs => $4)
               FROM picked WHERE t.key = picked.key
               RETURNING t.key, t.due_at, t.payload, t.generation, t.tries""",
            self.name,
            now,
            limit,
            self.lease,
        )
        timers = [
            Timer(r["key"], r["due_at"], r["payload"], r["generation"], r["tries"]) for r in rows
        ]
        return sorted(timers, key=lambda t: t.due_at)

    async def fired(self, timer: Timer) -> None:
        """The callback ran: delete this arming (a re-arm meanwhile survives)."""
        await self.pool.execute(
            "DELETE FROM work_timers WHERE key = $1 AND generation = $2",
            timer.key,
            timer.generation,
        )

    async def renew(self) -> None:
        await self.pool.execute(
            """UPDATE work_timers SET lease_until = clock_timestamp() + make_interval(secs => $2)
               WHERE worker = $1""",
            self.name,
            self.lease,
        )

    async def hand_back(self, timer: Timer) -> None:
        await self.pool.execute(
            """UPDATE work_timers SET worker = NULL, lease_until = NULL
               WHERE key = $1 AND generation = $2 AND worker = $3""",
            timer.key,
            timer.generation,
            self.name,
        )

    async def next_due(self) -> float | None:
        """The earliest due time (bot's clock), to sleep until it."""
        value = await self.pool.fetchval("SELECT min(due_at) FROM work_timers")
        return float(value) if value is not None else None

    async def armed(self, prefix: str = "") -> dict[str, float]:
        rows = await self.pool.fetch(
            "SELECT key, due_at FROM work_timers WHERE starts_with(key, $1)", prefix
        )
        return {r["key"]: float(r["due_at"]) for r in rows}
