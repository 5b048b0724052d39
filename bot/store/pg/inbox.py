"""The durable inbox of updates shared by every worker (PostgreSQL's own primitives, no library).

The webhook front stores an update (`put`) before Telegram gets its 200, so an accepted update
survives any crash. Requests that arrive while a `put` statement is in flight are stored
together by the next one (`GroupCommit`: one multi-row INSERT, one NOTIFY per batch), and each
is answered once that statement has committed its row: a burst of taps is a few statements, not
one per request (issue 32).

The front's own worker takes what it has room for in the put's own statement (`LocalWorker`):
no claim of its own. Any other worker `claim`s updates with `FOR UPDATE SKIP LOCKED` (workers
never wait on each other's rows) under a lease it keeps renewing (`renew`) while it works;
`done` closes them. One window is left, as it was with claims alone: two updates of one key
stored at the same moment by two fronts (two workers' webhook requests) may both be taken, each
statement not seeing the other's uncommitted row, as a claim between the newer one's commit and
the older one's took the newer one before. Ordering: an update
is claimable only when no older update of its ordering key is undone, so two taps of one learner,
or two commands in one group, are handled one after the other, whichever workers are free;
different keys run in parallel. A worker killed mid-update stops renewing: its lease runs out and
another worker takes the update again, which the duplicate guard and the database's constraints
make harmless. A worker that stops gracefully hands its claims back (`hand_back`) instead of making
the next one wait for the lease.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

import asyncpg

from bot.store.group_commit import GroupCommit

log = logging.getLogger(__name__)

CHANNEL = "quizbot_work"  # NOTIFY'd on every new update or timer: idle workers wake at once
MAX_TRIES = 5  # an update that killed this many workers is given up, not retried forever


@dataclass(frozen=True, slots=True)
class Claimed:
    update_id: int
    chat_key: str
    payload: str  # the update's JSON as received
    tries: int


# Fixed text whatever the batch's size (arrays, `unnest`ed): prepared once per connection.
# `mine`: what the front's own worker takes in the same statement ($6 its name, NULL for none;
# at most $8 updates, leased for $7 seconds), so it needs no claim of its own (issue 32): the
# oldest offered update of each key, when no older update of that key is stored undone
# (`free`), as `_CLAIM` would pick it. `woken`: one NOTIFY per batch that stored anything the
# local worker did not take (LIMIT 1 stops the scan after the first row), unless that worker
# has room for it ($5 false: see `LocalWorker`) and none of it waits behind an older update of
# its key. Its payload names those keys (`blocked`), so whichever worker holds the older one
# hands the key on at once when it finishes (bot/workers/consumer.py, `_contended`).
# `closed`: the updates the local worker finished since ($9, held by $10) are closed by the same
# statement, not by a statement of their own (`LocalWorker.closing`); an update of the same key
# stored earlier and waiting behind one of them is let through: `free` does not count what this
# statement closed, and `freed` wakes the workers (naming the keys) to claim one stored before.
_PUT = """
WITH closed AS (
    UPDATE work_updates SET done_at = clock_timestamp(), worker = NULL, lease_until = NULL
    WHERE update_id = ANY($9::bigint[]) AND worker = $10 AND done_at IS NULL
    RETURNING update_id, chat_key
), offered AS (
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[]) AS o(update_id, chat_key, payload)
), free AS (
    SELECT o.update_id FROM offered o
    WHERE NOT EXISTS (
          SELECT 1 FROM offered p WHERE p.chat_key = o.chat_key AND p.update_id < o.update_id)
      AND NOT EXISTS (
          SELECT 1 FROM work_updates w
          WHERE w.chat_key = o.chat_key AND w.done_at IS NULL AND w.update_id < o.update_id
            AND w.update_id NOT IN (SELECT update_id FROM closed))
), mine AS (
    SELECT update_id FROM free WHERE $6::text IS NOT NULL ORDER BY update_id LIMIT $8
), stored AS (
    INSERT INTO work_updates (update_id, chat_key, payload, worker, lease_until, tries)
    SELECT o.update_id, o.chat_key, o.payload,
           CASE WHEN m.update_id IS NOT NULL THEN $6::text END,
           CASE WHEN m.update_id IS NOT NULL
                THEN clock_timestamp() + make_interval(secs => $7) END,
           CASE WHEN m.update_id IS NOT NULL THEN 1 ELSE 0 END
    FROM offered o LEFT JOIN mine m USING (update_id)
    ON CONFLICT (update_id) DO NOTHING
    RETURNING update_id, chat_key, worker IS NOT NULL AS taken
), blocked AS (
    SELECT DISTINCT chat_key FROM stored WHERE update_id NOT IN (SELECT update_id FROM free)
)
SELECT (SELECT array_agg(update_id) FROM stored) AS new,
       (SELECT array_agg(update_id) FROM stored WHERE taken) AS taken,
       (SELECT array_agg(chat_key) FROM blocked) AS blocked,
       (SELECT pg_notify($4, left(coalesce((SELECT string_agg(chat_key, ' ') FROM blocked), ''),
                                  7900))
        FROM stored WHERE NOT taken AND ($5 OR EXISTS (SELECT 1 FROM blocked)) LIMIT 1) AS woken,
       (SELECT pg_notify($4, left(string_agg(DISTINCT c.chat_key, ' '), 7900))
        FROM closed c
        WHERE EXISTS (
            SELECT 1 FROM work_updates w
            WHERE w.chat_key = c.chat_key AND w.done_at IS NULL AND w.update_id > c.update_id
              AND w.update_id NOT IN (SELECT update_id FROM closed))
        HAVING count(*) > 0) AS freed
"""

# What this worker finished is closed ($4) by the statement that claims its next updates: one
# round trip, not two. Every CTE sees the inbox as it was when the statement began, so an
# update waiting behind one closed here is let through by `closed`'s RETURNING: the rows this
# very statement closed (the worker still held them), and no other.
_CLAIM = """
WITH closed AS (
    UPDATE work_updates SET done_at = clock_timestamp(), worker = NULL, lease_until = NULL
    WHERE update_id = ANY($4::bigint[]) AND worker = $1 AND done_at IS NULL
    RETURNING update_id
), picked AS (
    SELECT u.update_id FROM work_updates u
    WHERE u.done_at IS NULL
      AND (u.lease_until IS NULL OR u.lease_until < clock_timestamp())
      AND NOT EXISTS (
          SELECT 1 FROM work_updates older
          WHERE older.chat_key = u.chat_key AND older.done_at IS NULL
            AND older.update_id < u.update_id
            AND older.update_id NOT IN (SELECT update_id FROM closed))
    ORDER BY u.update_id
    LIMIT $2
    FOR UPDATE OF u SKIP LOCKED
)
UPDATE work_updates w
SET worker = $1, lease_until = clock_timestamp() + make_interval(secs => $3), tries = w.tries + 1
FROM picked WHERE w.update_id = picked.update_id
RETURNING w.update_id, w.chat_key, w.payload, w.tries
"""


class Placed(Enum):
    """What became of an update put in the inbox."""

    COPY = "already stored"  # Telegram sent it again: nothing done
    STORED = "stored"  # for any worker
    HERE = "stored and taken by this process's worker"  # within the put (LocalWorker.take)


class LocalWorker(Protocol):
    """The worker in the front's own process. Every NOTIFY wakes every worker, and all but one
    claim in vain (a round trip each per update; issue 32). So the front's `put` leases what
    its own worker has free slots for to that worker in the same statement, and hands it over
    (`take`) once committed: no claim, no NOTIFY. What it stored and could not lease (an older
    update of the same key is still undone) wakes the local worker (`wake`) if it has room,
    else every worker as before. With the kernel spreading webhook connections over the
    workers, each mostly takes what its front stored; any worker's `poll` finds what a worker
    that died in between left, once its lease runs out. The same statement closes what that
    worker finished meanwhile (`closing`): in a burst, no statement of its own for closing."""

    def room(self) -> int: ...

    def take(self, updates: list[Claimed]) -> None: ...

    def wake(self, updates: int, keys: Sequence[str] = ()) -> None:
        """`updates` stored for it wait behind an older update of their `keys`."""
        ...

    def closing(self) -> list[int]:
        """Updates this worker finished and has not closed yet: the put closes them too."""
        ...

    def closed(self, update_ids: list[int]) -> None:
        """The put committed: these are closed (a put that failed closes nothing)."""
        ...


class UpdateQueue:
    """One worker's view of the inbox: `name` marks its claims, `lease` is how long they hold."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        name: str,
        lease: float = 10.0,
        *,
        local: LocalWorker | None = None,
    ) -> None:
        self.pool, self.name, self.lease, self.local = pool, name, lease, local
        # The part of each batch the local worker takes at most: all of it behind a webhook
        # (the kernel already spreads Telegram's connections over the workers' fronts); 1/N
        # behind the poller, which alone receives every update (bot/workers/poller.py).
        self.local_share = 1.0
        self._puts: GroupCommit[tuple[int, str, str], Placed] = GroupCommit(self._store)
        self.claims = 0  # claim statements sent (tests and the benchmark)
        self.closes = 0  # `done` statements sent: closing alone, not with a claim

    @property
    def statements(self) -> int:
        """`put` statements sent so far (tests and the benchmark)."""
        return self._puts.flushes

    async def reachable(self) -> bool:
        """Whether the database answers now (the front's readiness probe)."""
        try:
            await self.pool.fetchval("SELECT 1")
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return False
        return True

    async def put(self, update_id: int, chat_key: str, payload: str) -> bool:
        """Store an update once and wake the workers; False if it was already there. Returns
        once the row is committed, with the others that arrived meanwhile (one statement)."""
        return await self.place(update_id, chat_key, payload) is not Placed.COPY

    async def place(self, update_id: int, chat_key: str, payload: str) -> Placed:
        """`put`, saying also whether this process's worker took the update (the webhook's
        response may then carry its popup: bot/webhook_replies.py)."""
        return await self._puts.submit((update_id, chat_key, payload))

    async def _store(self, batch: list[tuple[int, str, str]]) -> list[Placed]:
        # An update delivered twice within one batch: only its first copy is offered.
        offered: dict[int, tuple[int, str, str]] = {}
        for item in batch:
            offered.setdefault(item[0], item)
        ids, keys, payloads = zip(*offered.values(), strict=True)
        room = self.local.room() if self.local is not None else 0
        room = min(room, math.ceil(len(offered) * self.local_share))
        closing = self.local.closing() if self.local is not None else []
        row = await self.pool.fetchrow(
            _PUT,
            list(ids),
            list(keys),
            list(payloads),
            CHANNEL,
            room < len(offered),  # NOTIFY only what the local worker has no room for
            self.name if room > 0 else None,
            self.lease,
            room,
            closing,
            self.name,
        )
        assert row is not None  # a SELECT of subqueries: one row, always
        if closing and self.local is not None:
            self.local.closed(closing)
        fresh = set(row["new"] or ())
        taken = set(row["taken"] or ())
        if self.local is not None and fresh:  # committed: the local worker may go
            if taken:
                self.local.take([Claimed(u, k, p, 1) for u, k, p in offered.values() if u in taken])
            if room >= len(offered) and len(fresh) > len(taken):  # stored behind their key
                self.local.wake(len(fresh) - len(taken), row["blocked"] or ())
        out = []
        for update_id, _, _ in batch:
            if update_id not in fresh:
                out.append(Placed.COPY)
            else:
                out.append(Placed.HERE if update_id in taken else Placed.STORED)
            fresh.discard(update_id)  # the second copy in the batch was not new
        return out

    async def claim(self, limit: int, close: Sequence[int] = ()) -> list[Claimed]:
        """Up to `limit` updates, each the oldest undone of its key, oldest first; in the same
        statement, close `close` (updates this worker finished, as `done` would)."""
        if limit <= 0 and not close:
            return []
        self.claims += 1
        rows = await self.pool.fetch(_CLAIM, self.name, max(0, limit), self.lease, list(close))
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
        self.closes += 1
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
