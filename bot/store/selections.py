"""Pending selections of select-all questions (kind: multiple): what a learner or a group member
has toggled and not yet submitted.

Why a table (pending_selections, migration 012) and not memory: a toggle is not an answer, but
it must survive whichever process handles the member's next tap. With several workers on
PostgreSQL, consecutive taps of one member may reach different workers, and a dict in one of
them would lose or mix selections; a restart would lose them too. The selection is a bit set
of option indexes (bit i: the question's option i, in content order; the attempt pins the
content version), flipped by ONE statement (`INSERT … ON CONFLICT DO UPDATE … RETURNING`) so
that two quick taps cannot both read the old set and lose a flip.

A toggle is stored only while the question takes answers (a private attempt still running,
or the group run's question open) and the tapper has not submitted; the answer's own insert
deletes the pending row (trigger `answers_clear_pending_selection`). Rows of questions never
submitted are pruned after `STALE_AFTER` seconds, now and then, by a later toggle.
"""

from __future__ import annotations

from typing import Any

from bot.store.interface import Engine

STALE_AFTER = 2 * 86_400.0
PRUNE_EVERY = 200  # toggles between two prunes of stale rows

# XOR as (a | b) & ~(a & b): SQLite has no XOR operator, and this reads the same on both. Two
# whole statements (no SQL built at run time): a private attempt must be running; a group run's
# question must be the open one.
_TOGGLE_PRIVATE = """WITH v (attempt_id, question_index, user_id, bit, now) AS (VALUES (
        CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS INTEGER),
        CAST(? AS DOUBLE PRECISION)))
    INSERT INTO pending_selections (attempt_id, question_index, user_id, selected, updated_at)
    SELECT attempt_id, question_index, user_id, bit, now FROM v
    WHERE EXISTS (SELECT 1 FROM attempts a WHERE a.id = v.attempt_id
                  AND a.kind = 'private' AND a.status = 'active')
      AND NOT EXISTS (SELECT 1 FROM answers an WHERE an.attempt_id = v.attempt_id
                      AND an.question_index = v.question_index AND an.user_id = v.user_id)
    ON CONFLICT (attempt_id, question_index, user_id) DO UPDATE
    SET selected = (pending_selections.selected | excluded.selected)
                   & ~(pending_selections.selected & excluded.selected),
        updated_at = excluded.updated_at
    RETURNING selected"""

_TOGGLE_GROUP = """WITH v (attempt_id, question_index, user_id, bit, now) AS (VALUES (
        CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS INTEGER),
        CAST(? AS DOUBLE PRECISION)))
    INSERT INTO pending_selections (attempt_id, question_index, user_id, selected, updated_at)
    SELECT attempt_id, question_index, user_id, bit, now FROM v
    WHERE EXISTS (SELECT 1 FROM group_runs r WHERE r.attempt_id = v.attempt_id
                  AND r.current_question = v.question_index AND r.question_open = 1)
      AND NOT EXISTS (SELECT 1 FROM answers an WHERE an.attempt_id = v.attempt_id
                      AND an.question_index = v.question_index AND an.user_id = v.user_id)
    ON CONFLICT (attempt_id, question_index, user_id) DO UPDATE
    SET selected = (pending_selections.selected | excluded.selected)
                   & ~(pending_selections.selected & excluded.selected),
        updated_at = excluded.updated_at
    RETURNING selected"""

# A select-all card of a review or practice round (bot/usecases/round_answers.py): the row is
# keyed by the NEGATED round id (attempt ids are positive, so the two never meet) and the card's
# index; it is stored only while that learner's round is open and waits for that very card.
_TOGGLE_ROUND = """WITH v (attempt_id, question_index, user_id, bit, now) AS (VALUES (
        CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS INTEGER),
        CAST(? AS DOUBLE PRECISION)))
    INSERT INTO pending_selections (attempt_id, question_index, user_id, selected, updated_at)
    SELECT attempt_id, question_index, user_id, bit, now FROM v
    WHERE EXISTS (SELECT 1 FROM review_sessions s WHERE s.id = -v.attempt_id
                  AND s.user_id = v.user_id AND s.status = 'open'
                  AND s.answered = v.question_index AND s.shown > v.question_index)
    ON CONFLICT (attempt_id, question_index, user_id) DO UPDATE
    SET selected = (pending_selections.selected | excluded.selected)
                   & ~(pending_selections.selected & excluded.selected),
        updated_at = excluded.updated_at
    RETURNING selected"""


def indexes(mask: int) -> frozenset[int]:
    """The option indexes of a bit set."""
    return frozenset(i for i in range(mask.bit_length()) if mask >> i & 1)


class SelectionStore:
    def __init__(self, db: Engine) -> None:
        self.db = db
        self._toggles = 0

    async def toggle(
        self,
        attempt_id: int,
        question_index: int,
        user_id: int,
        option_index: int,
        now: float,
        *,
        group: bool,
    ) -> frozenset[int] | None:
        """Flip one option of the tapper's selection; the selection after the flip, or None
        when the question takes no more taps from them (submitted, closed, over)."""
        if not 0 <= option_index < 31:
            return None
        sql = _TOGGLE_GROUP if group else _TOGGLE_PRIVATE
        return await self._flip(sql, attempt_id, question_index, user_id, option_index, now)

    async def toggle_card(
        self, round_id: int, index: int, user_id: int, option_index: int, now: float
    ) -> frozenset[int] | None:
        """Flip one option of a round's select-all card; None unless the learner's round is
        open and waits for card `index`."""
        if not 0 <= option_index < 31:
            return None
        return await self._flip(_TOGGLE_ROUND, -round_id, index, user_id, option_index, now)

    async def card_selected(self, round_id: int, index: int, user_id: int) -> frozenset[int]:
        """The learner's current selection on a round's select-all card."""
        return await self.selected(-round_id, index, user_id)

    async def forget_card(self, round_id: int, index: int, user_id: int) -> None:
        """The card was answered: its selection is done with (no answer row's trigger here)."""

        async def delete(conn: Any) -> None:
            await conn.execute(
                """DELETE FROM pending_selections
                   WHERE attempt_id = ? AND question_index = ? AND user_id = ?""",
                (-round_id, index, user_id),
            )

        await self.db.write(delete)

    async def _flip(
        self,
        sql: str,
        attempt_id: int,
        question_index: int,
        user_id: int,
        option_index: int,
        now: float,
    ) -> frozenset[int] | None:
        self._toggles += 1
        prune = self._toggles % PRUNE_EVERY == 0
        params = (attempt_id, question_index, user_id, 1 << option_index, now)

        async def flip(conn: Any) -> int | None:
            async with conn.execute(sql, params) as cur:
                row = await cur.fetchone()
            if prune:
                await conn.execute(
                    "DELETE FROM pending_selections WHERE updated_at < ?", (now - STALE_AFTER,)
                )
            return None if row is None else int(row[0])

        mask = await self.db.write(flip)
        return None if mask is None else indexes(mask)

    async def selected(self, attempt_id: int, question_index: int, user_id: int) -> frozenset[int]:
        """The tapper's current, unsubmitted selection (empty when they toggled nothing)."""
        async with self.db.reader.execute(
            """SELECT selected FROM pending_selections
               WHERE attempt_id = ? AND question_index = ? AND user_id = ?""",
            (attempt_id, question_index, user_id),
        ) as cur:
            row = await cur.fetchone()
        return frozenset() if row is None else indexes(int(row[0]))
