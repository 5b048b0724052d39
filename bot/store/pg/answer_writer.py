"""Answers on PostgreSQL, group-committed: a burst of taps is ONE statement, each popup after it.

The SQLite writer stores a burst of answers with one statement (bot/store/answer_batch.py). Here
the worker's taps run side by side, so `GroupCommit` (bot/store/group_commit.py) gathers what
arrives while a statement is in flight into the next one. The statement is fixed text whatever
the batch's size (one array per column, `unnest`ed), so asyncpg prepares it once per connection
and every batch reuses the plan; the rows are typed by the arrays, not by text parameters.

What one statement does, atomically (data-modifying CTEs run in one snapshot, one transaction):
* insert the answers whose attempt is active (private) or whose question is open (group), once
  per (attempt, question, user): the primary key drops a double tap, RETURNING says which were
  new; the trigger that finishes a private attempt on its last answer fires inside it;
* upsert the names of members whose answers were new (the leaderboard's), writing a row only
  when the name changed (no cache of written names: another worker may have forgotten them);
* record the updates being handled (`handled_updates`), as every other write does, so an update
  retried after its worker died is known as handled.

The connection runs every statement as SERIALIZABLE (`default_transaction_isolation`), as
`PgDatabase.write` runs its transactions: an answer racing a question's close (another worker's
reveal) is either before it or refused, and a batch that lost a race is run again, whole. A batch
that fails otherwise (a bad row) is stored row by row, so one bad row fails alone, as on SQLite.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.store.answer_batch import AnswerRow
from bot.store.db import StoreError
from bot.store.group_commit import GroupCommit
from bot.store.pg.pool_session import keep_session, know_array_types

log = logging.getLogger(__name__)
RETRIES = 10  # serialization failures in a row before a batch gives up

# One array per AnswerRow.values() column, in that order, with its PostgreSQL type.
_TYPES = (
    "bigint", "int", "bigint", "int", "int", "text", "float8", "int", "int", "text", "text",
    "text", "text", "float8", "text", "float8",
)  # fmt: skip
_ARRAYS = ", ".join(f"${i + 1}::{t}[]" for i, t in enumerate(_TYPES))
_N = len(_TYPES)

INSERT = f"""
WITH v AS (
    SELECT * FROM unnest({_ARRAYS}) AS v (attempt_id, question_index, user_id, option_index,
        is_correct, language, answered_at, elapsed_ms, is_group, question_id, option_id,
        content_version, typed_text, typed_value, selected_ids, score)
), ins AS (
    INSERT INTO answers (attempt_id, question_index, user_id, option_index, is_correct,
                         language, answered_at, elapsed_ms, question_id, option_id,
                         content_version, typed_text, typed_value, selected_ids, score)
    SELECT attempt_id, question_index, user_id, option_index, is_correct, language,
           answered_at, elapsed_ms, question_id, option_id, content_version, typed_text,
           typed_value, selected_ids, score FROM v
    WHERE CASE WHEN v.is_group = 1
        THEN EXISTS (SELECT 1 FROM group_runs r WHERE r.attempt_id = v.attempt_id
                     AND r.current_question = v.question_index AND r.question_open = 1)
        ELSE EXISTS (SELECT 1 FROM attempts a WHERE a.id = v.attempt_id
                     AND a.kind = 'private' AND a.status = 'active') END
    ON CONFLICT DO NOTHING
    RETURNING attempt_id, question_index, user_id
), names AS (
    INSERT INTO users AS u (id, first_name, telegram_language, created_at, updated_at)
    SELECT n.id, n.first_name, n.language, n.at, n.at
    FROM unnest(${_N + 1}::bigint[], ${_N + 2}::text[], ${_N + 3}::text[], ${_N + 4}::float8[])
         AS n (id, first_name, language, at)
    WHERE n.id IN (SELECT user_id FROM ins)
    ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name,
        telegram_language = excluded.telegram_language, updated_at = excluded.updated_at
    WHERE (u.first_name, u.telegram_language)
          IS DISTINCT FROM (excluded.first_name, excluded.telegram_language)
), handled AS (
    INSERT INTO handled_updates (update_id, handled_at)
    SELECT DISTINCT h.id, ${_N + 6}::float8 FROM unnest(${_N + 5}::bigint[]) AS h (id)
    ON CONFLICT DO NOTHING
)
SELECT attempt_id, question_index, user_id FROM ins
"""


@dataclass(frozen=True, slots=True)
class _Pending:
    row: AnswerRow
    update_id: int | None  # the update being handled when the answer was submitted


def _params(batch: Sequence[_Pending]) -> list[Any]:
    """The statement's arrays: a column per answer value, then names, then update ids."""
    # A double tap queued in the same batch: only its first row is offered; the rest are old.
    offered: dict[tuple[int, int, int], AnswerRow] = {}
    for p in batch:
        offered.setdefault(p.row.key, p.row)
    columns: list[list[Any]] = [[] for _ in range(_N)]
    for row in offered.values():
        for column, value in zip(columns, row.values(), strict=True):
            column.append(value)
    names = {r.user_id: r for r in offered.values() if r.name is not None}  # one per user
    updates = [p.update_id for p in batch if p.update_id is not None]
    return [
        *columns,
        list(names),
        [r.name[0] for r in names.values() if r.name is not None],
        [r.name[1] for r in names.values() if r.name is not None],
        [r.answered_at for r in names.values()],
        updates,
        time.time(),
    ]


def _outcomes(batch: Sequence[_Pending], new: set[tuple[int, int, int]]) -> list[bool]:
    """Per submitted answer, whether it was stored: the first of its key in the batch only."""
    seen: set[tuple[int, int, int]] = set()
    out = []
    for p in batch:
        out.append(p.row.key in new and p.row.key not in seen)
        seen.add(p.row.key)
    return out


class AnswerWriter:
    """The worker's answers, one statement per burst, on a connection of their own."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._pool: asyncpg.Pool | None = None
        self._batches: GroupCommit[_Pending, bool | StoreError] = GroupCommit(self._flush)

    @property
    def statements(self) -> int:
        return self._batches.flushes

    async def open(self) -> None:
        # One connection (a pool of one: asyncpg replaces it if it breaks), every statement on
        # it SERIALIZABLE by default: the one statement of a batch is its own transaction.
        self._pool = await asyncpg.create_pool(
            self.dsn,
            min_size=1,
            max_size=1,
            max_inactive_connection_lifetime=0,  # never reopened for idling (issue 32)
            command_timeout=60,
            reset=keep_session,
            init=know_array_types,
            server_settings={"default_transaction_isolation": "serializable"},
        )

    async def close(self) -> None:
        await self._batches.idle()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await asyncio.wait_for(pool.close(), 10)

    async def write(self, row: AnswerRow, update_id: int | None) -> bool:
        """Once committed: whether the answer was new (False: a duplicate, or too late)."""
        outcome = await self._batches.submit(_Pending(row, update_id))
        if isinstance(outcome, StoreError):
            raise outcome
        return outcome

    async def _flush(self, batch: list[_Pending]) -> list[bool | StoreError]:
        try:
            return list(await self._statement(batch))
        except asyncpg.IntegrityConstraintViolationError as exc:
            if len(batch) == 1:
                return [StoreError(f"answer not stored: {exc}")]
            log.warning("answer batch of %d failed (%s); storing one by one", len(batch), exc)
            return [await self._one(p) for p in batch]

    async def _one(self, pending: _Pending) -> bool | StoreError:
        try:
            [stored] = await self._statement([pending])
        except asyncpg.IntegrityConstraintViolationError as exc:
            return StoreError(f"answer not stored: {exc}")
        return stored

    async def _statement(self, batch: list[_Pending]) -> list[bool]:
        if self._pool is None:
            raise StoreError("database is not open")
        params = _params(batch)
        for attempt in range(RETRIES):
            try:
                rows = await self._pool.fetch(INSERT, *params)
            except (asyncpg.SerializationError, asyncpg.DeadlockDetectedError):
                await asyncio.sleep(0.002 * (attempt + 1))
                continue
            new = {(int(r[0]), int(r[1]), int(r[2])) for r in rows}
            return _outcomes(batch, new)
        raise StoreError(f"answer batch lost {RETRIES} races in a row")
