"""How often each quiz was played, for the inline mode's empty query ("the most played ones").

One grouped count over `attempts` (private attempts and group runs alike, finished or not: a
start is a play). It reads the whole table, so the use case keeps the answer a few minutes
rather than asking on every keystroke of an inline query.
"""

from __future__ import annotations

from bot.store.interface import Reading


class QuizPlays:
    def __init__(self, db: Reading) -> None:
        self.db = db

    async def counts(self) -> dict[str, int]:
        """quiz id -> attempts and runs started on it."""
        async with self.db.reader.execute(
            "SELECT quiz_id, count(*) FROM attempts GROUP BY quiz_id"
        ) as cur:
            return {str(quiz_id): int(n) for quiz_id, n in await cur.fetchall()}
