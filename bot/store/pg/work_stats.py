"""What the workers' shared queues hold right now, for `/metrics` (read when scraped).

Three reads in one trip each, all on the partial indexes the queues already have (undone updates,
timers by due time): cheap enough for a scrape every 15 s, and the same answer from whichever
worker is asked, since the database is the one place that knows it.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg


@dataclass(frozen=True, slots=True)
class WorkState:
    waiting: int  # updates stored and not done (claimed or not)
    oldest_age: float  # seconds since the oldest of them arrived (0: none)
    timers_overdue: int  # timers past due that no live lease holds
    leases: dict[tuple[str, str], int]  # (worker, "updates" | "timers") -> leases held
    workers: int  # workers seen in the last `stale` seconds


_INBOX = """
SELECT count(*), coalesce(extract(epoch FROM clock_timestamp() - min(received_at)), 0)
FROM work_updates WHERE done_at IS NULL
"""
_OVERDUE = """
SELECT count(*) FROM work_timers
WHERE due_at <= $1 AND (lease_until IS NULL OR lease_until < clock_timestamp())
"""
_LEASES = """
SELECT worker, 'updates', count(*) FROM work_updates
WHERE done_at IS NULL AND lease_until > clock_timestamp() GROUP BY worker
UNION ALL
SELECT worker, 'timers', count(*) FROM work_timers
WHERE lease_until > clock_timestamp() GROUP BY worker
"""
_WORKERS = """
SELECT count(*) FROM work_workers WHERE seen_at > clock_timestamp() - make_interval(secs => $1)
"""


async def work_state(pool: asyncpg.Pool, now: float, stale: float = 30.0) -> WorkState:
    """The inbox, the timers past due (`now`: the bots' clock, as timers are armed in it), the
    leases each worker holds and how many workers are alive."""
    async with pool.acquire() as conn:
        inbox = await conn.fetchrow(_INBOX)  # an aggregate: always one row
        waiting, oldest = (inbox[0], inbox[1]) if inbox is not None else (0, 0.0)
        overdue = await conn.fetchval(_OVERDUE, now)
        leases = {(str(r[0]), str(r[1])): int(r[2]) for r in await conn.fetch(_LEASES)}
        workers = await conn.fetchval(_WORKERS, stale)
    return WorkState(int(waiting), float(oldest), int(overdue), leases, int(workers))
