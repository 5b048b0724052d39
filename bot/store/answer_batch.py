"""The hot write: a batch of answers stored by ONE statement, in one trip to the writer's thread.

Every `await` on an aiosqlite connection is a trip to its thread and back through the event loop,
and under load each trip waits for a whole turn of the loop. A batch of answers is therefore one
multi-row `INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING` run in autocommit mode: the one
statement is its own transaction (atomic, committed when the call returns) and its RETURNING rows
say which answers were new. A duplicate tap conflicts on the primary key and is simply not
returned; an answer to a closed attempt or question is filtered out by the statement's WHERE.

What used to be a second statement happens without a trip of its own:
- finishing a private attempt on its last answer is the `answers_finish_private_attempt`
  trigger (migration 004), inside the same statement, so it is just as atomic;
- a group member's name (for the leaderboard) is upserted later, one statement for many
  answers, when the writer is idle or before its next other write (a run's finish, whose
  leaderboard reads the names), and only for names this process has not written yet
  (`NamesWritten`): no tap waits for it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import aiosqlite

_COLUMNS = 16  # values per answer in the statement below


@dataclass(frozen=True, slots=True)
class AnswerRow:
    """One answer to store. `group` answers need their question open; private ones an active
    attempt. `name` (first name, Telegram language) is kept for group leaderboards."""

    attempt_id: int
    question_index: int
    user_id: int
    option_index: int
    is_correct: bool
    language: str
    answered_at: float
    elapsed_ms: int | None = None
    group: bool = False
    name: tuple[str, str | None] | None = None
    # Content ids and version (migration 006): history stays with its question when reordered.
    question_id: str = ""
    option_id: str = ""
    content_version: str = ""
    # A number question's reply as typed and the value read from it (migration 013).
    typed_text: str | None = None
    typed_value: float | None = None
    # kind: multiple (migration 012): the submitted option ids, comma-joined in the question's
    # order, and the answer's partial credit (0..1); None for the other kinds.
    selected_ids: str | None = None
    score: float | None = None

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.attempt_id, self.question_index, self.user_id)

    def values(self) -> tuple[Any, ...]:
        return (
            self.attempt_id,
            self.question_index,
            self.user_id,
            self.option_index,
            int(self.is_correct),
            self.language,
            self.answered_at,
            self.elapsed_ms,
            int(self.group),
            self.question_id,
            self.option_id,
            self.content_version,
            self.typed_text,
            self.typed_value,
            self.selected_ids,
            self.score,
        )


def placeholders(width: int, count: int) -> str:
    """`(?, ?), (?, ?)` for `count` rows of `width` values: only question marks, never data."""
    row = "(" + ", ".join(["?"] * width) + ")"
    return ", ".join([row] * count)


# Typed, so PostgreSQL (bot/store/pg) does not take the VALUES' parameters for text; SQLite
# reads DOUBLE PRECISION as REAL. Attempt and user ids are BIGINT: Telegram user ids pass 2^31
# (PostgreSQL refused such a learner's every answer as out of int32 range).
_ROW = (
    "(CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS INTEGER), "
    "CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), CAST(? AS INTEGER), "
    "CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), "
    "CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION))"
)


def _insert_sql(count: int) -> str:
    rows = ", ".join([_ROW] * count)
    # SQLite needs the WHERE for `INSERT … SELECT … ON CONFLICT` to parse (not a join's ON).
    return f"""WITH v (attempt_id, question_index, user_id, option_index, is_correct, language,
                       answered_at, elapsed_ms, is_group, question_id, option_id,
                       content_version, typed_text, typed_value, selected_ids,
                       score) AS (VALUES {rows})
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
        RETURNING attempt_id, question_index, user_id"""


class NamesWritten:
    """The names this process has stored (user id -> first name, Telegram language), so a tap
    whose name is already in the database costs no statement. Bounded; forgetting a user
    drops them here too (their next tap writes their name again)."""

    LIMIT = 100_000

    def __init__(self) -> None:
        self._names: dict[int, tuple[str, str | None]] = {}

    def missing(self, rows: list[AnswerRow]) -> dict[int, AnswerRow]:
        """The rows (one per user, the latest) whose name this process has not written."""
        out: dict[int, AnswerRow] = {}
        for row in rows:
            if row.name is not None and self._names.get(row.user_id) != row.name:
                out[row.user_id] = row
        return out

    def written(self, rows: dict[int, AnswerRow]) -> None:
        if len(self._names) + len(rows) > self.LIMIT:
            self._names.clear()
        self._names.update({uid: row.name for uid, row in rows.items() if row.name is not None})

    def forget(self, user_id: int) -> None:
        self._names.pop(user_id, None)


async def insert_answers(conn: aiosqlite.Connection, rows: list[AnswerRow]) -> list[bool]:
    """Store `rows` in one statement (autocommit: committed when this returns); per row, whether
    it was new. Raises if the statement fails as a whole (the caller then retries row by row,
    so one bad row cannot fail its neighbours)."""
    # A double tap queued in the same batch: only its first row is offered; the rest are old.
    first = {row.key: i for i, row in reversed(list(enumerate(rows)))}
    offered = [rows[i] for i in sorted(first.values())]
    params = [value for row in offered for value in row.values()]
    assert len(params) == _COLUMNS * len(offered)
    sql = _insert_sql(len(offered))
    returned = await conn.execute_fetchall(sql, params)
    new = {(int(r[0]), int(r[1]), int(r[2])) for r in returned}
    return [row.key in new and first[row.key] == i for i, row in enumerate(rows)]


async def store_names(
    conn: aiosqlite.Connection, rows: list[AnswerRow], names: NamesWritten
) -> None:
    """Upsert the names of members whose answers were stored, unless this process already
    wrote them: a name is for the leaderboard at the end of a run, and must not add a trip to
    every member's first tap (`Database` calls this when its writer is idle)."""
    missing = names.missing(rows)
    if not missing:
        return
    names_sql = placeholders(5, len(missing))
    await conn.execute_fetchall(
        f"""INSERT INTO users (id, first_name, telegram_language, created_at, updated_at)
            VALUES {names_sql}
            ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name,
                telegram_language = excluded.telegram_language,
                updated_at = excluded.updated_at""",
        [
            v
            for uid, row in missing.items()
            for v in (uid, *(row.name or ("", None)), row.answered_at, row.answered_at)
        ],
    )
    names.written(missing)


async def insert_each(conn: aiosqlite.Connection, rows: list[AnswerRow]) -> list[tuple[bool, Any]]:
    """After a failed batch: every row on its own, each with its own outcome or error."""
    outcomes: list[tuple[bool, Any]] = []
    for row in rows:
        try:
            [stored] = await insert_answers(conn, [row])
        except sqlite3.Error as exc:
            outcomes.append((False, exc))
        else:
            outcomes.append((True, stored))
    return outcomes
