"""Give answers written before migration 006 their content ids, from the catalogue of that moment.

SQL cannot read the content, so the migration only adds the columns; the first start after it
(before any update is handled) maps each old (quiz, question position, option position) to the
ids of the catalogue being served, once: converted rows leave the partial index
`answers_without_ids`, and a position the content no longer has gets '' (unknown) rather than
a guess. Later starts find nothing to do in one indexed lookup.
"""

from __future__ import annotations

import logging

from bot.core.models import Catalog
from bot.store.conn import Conn
from bot.store.interface import Engine

log = logging.getLogger(__name__)


async def _convert(conn: Conn, catalog: Catalog) -> int:
    combos = await conn.execute_fetchall(
        """SELECT DISTINCT a.quiz_id, an.question_index, an.option_index
           FROM answers an JOIN attempts a ON a.id = an.attempt_id
           WHERE an.question_id IS NULL"""
    )
    updates = []
    for quiz_id, q_index, o_index in combos:
        quiz = catalog.quiz(quiz_id)
        question = quiz.questions[q_index] if quiz and 0 <= q_index < len(quiz) else None
        options = question.options if question else ()
        option = options[o_index] if 0 <= o_index < len(options) else None
        updates.append(
            (
                question.id if question else "",
                option.id if option else "",
                quiz_id,
                q_index,
                o_index,
            )
        )
    await conn.executemany(
        """UPDATE answers SET question_id = ?, option_id = ?
           WHERE question_id IS NULL AND attempt_id IN (SELECT id FROM attempts WHERE quiz_id = ?)
                 AND question_index = ? AND option_index = ?""",
        updates,
    )
    await conn.execute(
        """UPDATE review_inbox SET question_id = (
               SELECT an.question_id FROM answers an
               WHERE an.attempt_id = review_inbox.attempt_id
                 AND an.question_index = review_inbox.question_index
                 AND an.user_id = review_inbox.user_id)
           WHERE question_id IS NULL"""
    )
    return len(updates)


async def convert_old_answers(db: Engine, catalog: Catalog) -> int:
    """Fill the ids of pre-006 answers (and waiting misses); how many (quiz, positions) pairs."""
    async with db.reader.execute("SELECT 1 FROM answers WHERE question_id IS NULL LIMIT 1") as cur:
        if await cur.fetchone() is None:
            return 0
    converted: int = await db.write(lambda conn: _convert(conn, catalog))
    log.info("gave content ids to answers from before migration 006 (%d positions)", converted)
    return converted
