"""Queries behind a group's lasting standings: run scores, tallies over a window, who left.

A run is scored once, when it ends, in the same write transaction that reads its answers (a
shared reader could miss the last taps). Tallies are one indexed sum over `run_scores`; members
known to have left are left out of the list but their rows stay, so they come back with their
history if they rejoin.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.core.scoring import AnswerFact, RunScore
from bot.core.standings import Tally
from bot.store.conn import Conn
from bot.store.interface import Engine

Scorer = Callable[[Sequence[AnswerFact]], list[RunScore]]


@dataclass(frozen=True, slots=True)
class MemberGroup:
    """A group a member has points in, for /stats in private."""

    chat_id: int
    title: str
    timezone: str


# Total answer time (the tie-breaker) comes from the run's answers: run_scores has no column.
_TALLY = """SELECT s.user_id, coalesce(u.first_name, '') AS name, sum(s.points) AS points,
                   sum(s.correct) AS correct, count(*) AS runs, sum(s.answered) AS answered,
                   coalesce(sum((SELECT sum(coalesce(a.elapsed_ms, 0)) FROM answers a
                                 WHERE a.attempt_id = s.attempt_id AND a.user_id = s.user_id)),
                            0) AS elapsed
            FROM run_scores s
            LEFT JOIN users u ON u.id = s.user_id
            LEFT JOIN group_members m ON m.chat_id = s.chat_id AND m.user_id = s.user_id
            WHERE s.chat_id = ? AND coalesce(m.present, 1) = 1
              AND s.scored_at >= ? AND s.attempt_id <> ?
            GROUP BY s.user_id, u.first_name"""
EVER = -1e18  # `since` for all time: one statement for every window
NO_RUN = -1


class StandingsStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def score_run(
        self, run_id: int, chat_id: int, scoring: str, scorer: Scorer, now: float
    ) -> list[RunScore]:
        """Score a finished run once (a second call changes nothing and returns [])."""

        async def write(conn: Conn) -> list[RunScore]:
            async with conn.execute(
                "SELECT 1 FROM run_scores WHERE attempt_id = ? LIMIT 1", (run_id,)
            ) as cur:
                if await cur.fetchone() is not None:
                    return []
            async with conn.execute(
                """SELECT user_id, question_index, is_correct, coalesce(elapsed_ms, 0),
                          answered_at, score
                   FROM answers WHERE attempt_id = ?""",
                (run_id,),
            ) as cur:
                facts = [
                    AnswerFact(
                        int(r[0]),
                        int(r[1]),
                        bool(r[2]),
                        int(r[3]),
                        float(r[4]),
                        None if r[5] is None else float(r[5]),
                    )
                    async for r in cur
                ]
            scores = scorer(facts)
            if not scores:
                return []
            await conn.executemany(
                """INSERT INTO run_scores (attempt_id, chat_id, user_id, scoring, points, correct,
                                           answered, last_answer_at, scored_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                [
                    (
                        run_id,
                        chat_id,
                        s.user_id,
                        scoring,
                        s.points,
                        s.correct,
                        s.answered,
                        s.last_answer_at,
                        now,
                    )
                    for s in scores
                ],
            )
            return scores

        return await self.db.write(write)

    async def tallies(
        self, chat_id: int, since: float | None = None, exclude_run: int | None = None
    ) -> list[Tally]:
        """Results per present member over runs that ended at or after `since` (None: ever)."""
        params = (
            chat_id,
            EVER if since is None else since,
            NO_RUN if exclude_run is None else exclude_run,
        )
        async with self.db.reader.execute(_TALLY, params) as cur:
            return [
                Tally(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]))
                async for r in cur
            ]

    async def member_groups(self, user_id: int) -> list[MemberGroup]:
        """Groups where the member has points and has not left, the bot still in them."""
        async with self.db.reader.execute(
            """SELECT g.chat_id, g.title, g.timezone FROM groups g
               WHERE g.member = 1
                 AND EXISTS (SELECT 1 FROM run_scores s
                             WHERE s.chat_id = g.chat_id AND s.user_id = ?)
                 AND NOT EXISTS (SELECT 1 FROM group_members m
                                 WHERE m.chat_id = g.chat_id AND m.user_id = ?
                                   AND m.present = 0)
               ORDER BY g.title, g.chat_id""",
            (user_id, user_id),
        ) as cur:
            return [MemberGroup(int(r[0]), str(r[1]), str(r[2])) async for r in cur]

    async def set_present(self, chat_id: int, user_id: int, present: bool, now: float) -> None:
        """Record that a member left (or came back); their scores stay either way."""

        async def write(conn: Conn) -> None:
            await conn.execute(
                """INSERT INTO group_members (chat_id, user_id, present, updated_at)
                   VALUES (?, ?, ?, ?)
                   ON CONFLICT (chat_id, user_id) DO UPDATE SET present = excluded.present,
                       updated_at = excluded.updated_at""",
                (chat_id, user_id, int(present), now),
            )

        await self.db.write(write)
