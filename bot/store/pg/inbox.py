"""The durable inbox of updates shared by every worker (PostgreSQL's own primitives, no library).

The webhook front stores an update (`put`) before Telegram gets its 200, so an accepted update
survives any crash. A worker `claim`s updates with `FOR UPDATE SKIP LOCKED` (workers never wait
on each other's rows) under a lease it keeps renewing (`renew`) while it works; `done` closes
them. Ordering: an update is claimable only when no older update of its ordering key is undone,
so two taps of one learner, or two commands in one group, are handled one after the other,
whichever workers are free; different keys run in parallel. A worker killed mid-update stops
renewing: its lease runs out and another worker takes the update again, which the duplicate
guard and the database's constraints make harmless. A worker that stops gracefully hands its
claims back (`hand_back`) instead of making the next one wait for the lease.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

log = logging.getLogger(__name__)

CHANNEL = "quizbot_work"  # NOTIFY'd on every new update or timer: idle workers wake at once
MAX_TRIES = 5  # an update that killed this many workers is given up, not retried forever


@dataclass(frozen=True, slots=True)
class Claimed:
    update_id: int
    chat_key: str
    payload: str  # the update's JSON as received
    tries: int


_CLAIM = """
WITH picked AS (
    SELECT u.update_id FROM work_updates u
    WHERE u.done_at IS NULL
      AND (u.lease_until IS NULL OR u.lease_until < clock_timestamp())
      AND NOT EXISTS (
          SELECT 1 FROM work_updates older
          WHERE older.chat_key = u.chat_key AND older.done_at IS NULL
            AND older.update_id < u.update_id)
    ORDER BY u.update_id
    LIMIT $2
    FOR UPDATE OF u SKIP LOCKED
)
UPDATE work_updates w
SET worker = $1, lease_until = clock_timestamp() + make_interval(secs => $3), tries = w.tries + 1
FROM picked WHERE w.update_id = picked.update_id
RETURNING w.update_id, w.chat_key, w.payload, w.tries
"""


class UpdateQueue:
    """One worker's view of the inbox: `name` marks its claims, `lease` is how long they hold."""

    def __init__(self, pool: asyncpg.Pool, name: str, lease: float = 10.0) -> None:
        self.pool, self.name, self.lease = pool, name, lease

    async def reachable(self) -> bool:
        """Whether the database answers now (the front's readiness probe)."""
        try:
            await self.pool.fetchval("SELECT 1")
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return False
        return True

    async def put(self, update_id: int, chat_key: str, payload: str) -> bool:
        """Store an update once and wake the workers; False if it was already there."""
        new = await self.pool.fetchval(
            """WITH stored AS (
                   INSERT INTO work_updates (update_id, chat_key, payload) VALUES ($1, $2, $3)
                   ON CONFLICT (update_id) DO NOTHING RETURNING update_id)
               SELECT count(*) FROM (SELECT pg_notify($4, '') FROM stored) AS woken""",
            update_id,
            chat_key,
            payload,
            CHANNEL,
        )
        return bool(new)

    async def claim(self, limit: int) -> list[Claimed]:
        """Up to `limit` updates, each the oldest undone of its key, oldest first."""
        if limit <= 0:
            return []
        rows = await self.pool.fetch(_CLAIM, self.name, limit, self.lease)
        claimed = sorted(
            (Claimed(r["update_id"], r["chat_key"], r["payload"], r["tries"]) for r in rows),
            key=lambda c: c.update_id,
        )
        hopeless = [c.update_id for c in claimed if c.tries > MAX_TRIES]
        if hopeless:
            log.error("updates %s failed %d times: given up", hopeless, MAX_TRIES)
            await self.done(hopeless)
        return [c for c in claimed if c.tries <= MAX_TRIES]

    async def done(self, update_ids: Sequence[int]) -> None:
        """Close updates this worker still holds (one it lost to another worker stays open)."""
        await self.pool.execute(
            """UPDATE work_updates SET done_at = clock_timestamp(), worker = NULL,
                                       lease_until = NULL
               WHERE update_id = ANY($1::bigint[]) AND worker = $2 AND done_at IS NULL""",
            list(update_ids),
            self.name,
        )

    async def hand_back(self, update_ids: Sequence[int]) -> None:
        """Release claims unprocessed (graceful stop): the next free worker takes them now."""
        await self.pool.execute(
            """UPDATE work_updates SET worker = NULL, lease_until = NULL,
                                       tries = greatest(tries - 1, 0)
               WHERE update_id = ANY($1::bigint[]) AND worker = $2 AND done_at IS NULL""",
            list(update_ids),
            self.name,
        )

    async def renew(self) -> int:
        """Extend the lease of everything this worker holds; how many it holds."""
        result: str = await self.pool.execute(
            """UPDATE work_updates SET lease_until = clock_timestamp() + make_interval(secs => $2)
               WHERE worker = $1 AND done_at IS NULL""",
            self.name,
            self.lease,
        )
        return int(result.split()[-1])

    async def pending(self) -> int:
        """Updates not done yet (claimed or waiting)."""
        n = await self.pool.fetchval("SELECT count(*) FROM work_updates WHERE done_at IS NULL")
        return int(n)

    async def purge(self, keep_seconds: float = 86_400.0) -> int:
        """Forget done updates older than `keep_seconds` (until then they stop redeliveries)."""
        result: str = await self.pool.execute(
            """DELETE FROM work_updates
               WHERE done_at < clock_timestamp() - make_interval(secs => $1)""",
            keep_seconds,
        )
        return int(result.split()[-1])
