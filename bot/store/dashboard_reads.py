"""Read-only queries behind the Mini App dashboard that /stats and /groupstats do not already ask.

Each starts from an index on who is asking (a learner's answers, a chat's group attempts), so its
cost follows that learner's or group's own history. Nothing here writes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.core.practice import QuestionKey
from bot.store.interface import Reading


@dataclass(frozen=True, slots=True)
class RunRow:
    """One group run: when it started, how it ended, how many members answered in it."""

    attempt_id: int
    quiz_id: str
    started_at: float
    status: str
    players: int


class DashboardStore:
    def __init__(self, db: Reading) -> None:
        self.db = db

    async def stored_language(self, user_id: int) -> str | None:
        """The language the learner picked in the bot, if any."""
        async with self.db.reader.execute(
            "SELECT language FROM users WHERE id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        return str(row[0]) if row and row[0] else None

    async def stored_timezone(self, user_id: int) -> str | None:
        """The time zone the learner set with /timezone in the bot, if any."""
        async with self.db.reader.execute(
            "SELECT timezone FROM users WHERE id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        return str(row[0]) if row and row[0] else None

    async def answers_since(self, user_id: int, since: float) -> list[tuple[float, int]]:
        """(answered_at, is_correct) of every answer the learner gave since `since`; a
        flashcard's rating (option `rating:...`) is not scored, so not counted (as in /stats)."""
        async with self.db.reader.execute(
            """SELECT answered_at, is_correct FROM answers
               WHERE user_id = ? AND answered_at >= ?
                 AND coalesce(option_id, '') NOT LIKE 'rating:%'""",
            (user_id, since),
        ) as cur:
            return [(float(at), int(right)) for at, right in await cur.fetchall()]

    async def group_runs(self, chat_id: int) -> list[RunRow]:
        """Every run of the group, oldest first, with its number of players."""
        async with self.db.reader.execute(
            """SELECT a.id, a.quiz_id, a.started_at, a.status, count(DISTINCT an.user_id)
               FROM attempts a LEFT JOIN answers an ON an.attempt_id = a.id
               WHERE a.chat_id = ? AND a.kind = 'group'
               GROUP BY a.id ORDER BY a.started_at, a.id""",
            (chat_id,),
        ) as cur:
            return [
                RunRow(int(i), str(q), float(s), str(st), int(p))
                for i, q, s, st, p in await cur.fetchall()
            ]

    async def in_running_exam(self, user_id: int, quiz_id: str) -> bool:
        """Whether the learner has an exam running with questions of this quiz."""
        async with self.db.reader.execute(
            """SELECT questions FROM practice_sets
               WHERE user_id = ? AND kind = 'exam' AND status = 'active'""",
            (user_id,),
        ) as cur:
            rows = await cur.fetchall()
        return any(
            key.quiz_id == quiz_id
            for (questions,) in rows
            for key in map(QuestionKey.decode, json.loads(questions or "[]"))
        )

    async def answered_outside_exams(self, user_id: int, quiz_id: str) -> set[str]:
        """Ids of the quiz's questions the learner was shown the verdict of: answered in a private
        attempt, a practice set or a review, or in a group run that has ended. Not an exam's
        answers (no verdict until the end), nor a running group run's (its question may still be
        open for the others)."""
        async with self.db.reader.execute(
            """SELECT DISTINCT an.question_id FROM answers an
               JOIN attempts a ON a.id = an.attempt_id
               WHERE an.user_id = ? AND a.quiz_id = ? AND an.question_id IS NOT NULL
                 AND (a.kind = 'private' OR a.status <> 'active')
               UNION SELECT question_id FROM review_log WHERE user_id = ? AND quiz_id = ?""",
            (user_id, quiz_id, user_id, quiz_id),
        ) as cur:
            answered = {str(q) for (q,) in await cur.fetchall() if q}
        async with self.db.reader.execute(
            "SELECT questions, answered FROM practice_sets WHERE user_id = ? AND kind = 'practice'",
            (user_id,),
        ) as cur:
            for questions, count in await cur.fetchall():
                for key in map(QuestionKey.decode, json.loads(questions)[: int(count)]):
                    if key.quiz_id == quiz_id:
                        answered.add(key.question_id)
        return answered
