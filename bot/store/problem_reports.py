"""Learners' reports of a problem with a question (migration 016): written by the "⚠️ Report"
flow, read by `quizbot content reports` and /groupstats.

One report per learner, question and reason is a constraint of the table: a second one is not
an error but `None` from `add`, which the use case turns into "already reported". The same
queries run on PostgreSQL through `PgDatabase` (`INSERT OR IGNORE` is translated there).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.conn import Conn
from bot.store.interface import Engine


@dataclass(frozen=True, slots=True)
class NewReport:
    user_id: int
    quiz_id: str
    question_id: str
    lang: str
    content_version: str
    reason: str  # a bot.core.problem_report.Reason value


@dataclass(frozen=True, slots=True)
class StoredReport:
    """A report as authors read it: no user id (see `reporters` for how many people)."""

    quiz_id: str
    question_id: str
    lang: str
    content_version: str
    reason: str
    text: str | None
    created_at: float


class ProblemReportStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def add(self, report: NewReport, now: float, wait_until: float) -> int | None:
        """Store a report waiting for its sentence until `wait_until`; its id, or None when this
        learner already reported this question for this reason (nothing changes then). Only the
        newest report waits: an older one still waiting stops waiting."""
        r = report

        async def insert(conn: Conn) -> int | None:
            async with conn.execute(
                """INSERT OR IGNORE INTO problem_reports
                     (user_id, quiz_id, question_id, lang, content_version, reason, text_until,
                      created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
                (r.user_id, r.quiz_id, r.question_id, r.lang, r.content_version, r.reason,
                 wait_until, now),
            ) as cur:  # fmt: skip
                row = await cur.fetchone()
            if row is None:
                return None
            new_id = int(row[0])
            await conn.execute(
                """UPDATE problem_reports SET text_until = NULL
                    WHERE user_id = ? AND text_until IS NOT NULL AND id <> ?""",
                (r.user_id, new_id),
            )
            return new_id

        result: int | None = await self.db.write(insert)
        return result

    async def waiting(self, user_id: int, now: float) -> int | None:
        """The id of the learner's report still waiting for its sentence, if any (a read: most
        private text is not a sentence, and must not cost a write)."""
        async with self.db.reader.execute(
            """SELECT id FROM problem_reports WHERE user_id = ? AND text_until >= ?
                ORDER BY created_at DESC, id DESC LIMIT 1""",
            (user_id, now),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    async def add_text(self, user_id: int, report_id: int, text: str, now: float) -> bool:
        """The sentence of the learner's waiting report; False when it no longer waits."""
        return await self._close(
            """UPDATE problem_reports SET text = ?, text_until = NULL
                WHERE id = ? AND user_id = ? AND text_until >= ? RETURNING id""",
            (text, report_id, user_id, now),
        )

    async def skip(self, user_id: int, report_id: int) -> bool | None:
        """No sentence for this report (the Skip button); False when it was not waiting any
        more, None when the learner has no report of that id (forged, someone else's, or
        forgotten since)."""

        async def update(conn: Conn) -> bool | None:
            async with conn.execute(
                """UPDATE problem_reports SET text_until = NULL
                    WHERE id = ? AND user_id = ? AND text_until IS NOT NULL RETURNING id""",
                (report_id, user_id),
            ) as cur:
                if await cur.fetchone() is not None:
                    return True
            async with conn.execute(
                "SELECT 1 FROM problem_reports WHERE id = ? AND user_id = ?", (report_id, user_id)
            ) as cur:
                return False if await cur.fetchone() is not None else None

        done: bool | None = await self.db.write(update)
        return done

    async def _close(self, sql: str, args: tuple[object, ...]) -> bool:
        async def update(conn: Conn) -> bool:
            async with conn.execute(sql, args) as cur:
                return await cur.fetchone() is not None

        done: bool = await self.db.write(update)
        return done

    async def counts(self, quiz_ids: Iterable[str]) -> dict[tuple[str, str], int]:
        """(quiz id, question id) -> number of reports, for the questions of these quizzes
        that have any (all learners, all reasons)."""
        wanted = sorted(set(quiz_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        async with self.db.reader.execute(
            f"""SELECT quiz_id, question_id, count(*) FROM problem_reports
                 WHERE quiz_id IN ({marks}) GROUP BY quiz_id, question_id""",
            tuple(wanted),
        ) as cur:
            return {(str(q), str(k)): int(n) for q, k, n in await cur.fetchall()}

    async def listing(self, quiz_id: str | None = None, since: float = 0.0) -> list[StoredReport]:
        """Every report (of one quiz, made since a time), oldest first, without who made it."""
        where, args = _filter(quiz_id, since)
        async with self.db.reader.execute(
            f"""SELECT quiz_id, question_id, lang, content_version, reason, text, created_at
                  FROM problem_reports WHERE {where} ORDER BY created_at, id""",
            args,
        ) as cur:
            return [
                StoredReport(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]),
                             None if r[5] is None else str(r[5]), float(r[6]))
                for r in await cur.fetchall()
            ]  # fmt: skip

    async def reporters(
        self, quiz_id: str | None = None, since: float = 0.0
    ) -> dict[tuple[str, str, str], int]:
        """(quiz, question, language) -> how many different learners reported it: a count,
        never who."""
        where, args = _filter(quiz_id, since)
        async with self.db.reader.execute(
            f"""SELECT quiz_id, question_id, lang, count(DISTINCT user_id) FROM problem_reports
                 WHERE {where} GROUP BY quiz_id, question_id, lang""",
            args,
        ) as cur:
            return {(str(q), str(k), str(g)): int(n) for q, k, g, n in await cur.fetchall()}


def _filter(quiz_id: str | None, since: float) -> tuple[str, tuple[object, ...]]:
    """The WHERE clause of the authors' reads (no `? IS NULL`: PostgreSQL cannot type it)."""
    if quiz_id is None:
        return "created_at >= ?", (since,)
    return "quiz_id = ? AND created_at >= ?", (quiz_id, since)
