"""The dashboard's reads start from who is asking: each uses an index on the learner (the plan
is SQLite's; the reads run on both engines in tests/web/test_answer_keys.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store import Database


async def test_a_learners_practice_sets_are_read_by_index(tmp_path: Path) -> None:
    # The preview asks which questions a learner answered on every request: a scan of every
    # learner's practice sets was a cost any learner could multiply (the streak's and /forget's
    # reads of a learner's sets had it too).
    db = Database(tmp_path / "quizbot.sqlite3")
    await db.open()
    await db.close()
    with sqlite3.connect(tmp_path / "quizbot.sqlite3") as conn:
        for sql in (
            "SELECT questions, answered FROM practice_sets WHERE user_id = 1 AND kind = 'practice'",
            "SELECT shown_at FROM practice_sets WHERE user_id = 1 AND answered > 0",
            "DELETE FROM practice_sets WHERE user_id = 1",
        ):
            plan = " ".join(str(row[-1]) for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
            assert "practice_sets_by_user" in plan, (sql, plan)
