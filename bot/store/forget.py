"""Forgetting a learner (`/forget`, `quizbot forget USER_ID`): one transaction, nothing left that
names them.

Deleted: their profile (name, languages), every private attempt with its answers, their practice
sets and exams, their unsubmitted selections of select-all questions, their review queue (items,
log, pending inbox, notices, review and practice rounds), their reminder (and when it was next
due), whether they left a
group, in which groups the bot saw them (`group_seen`), the quiz files they sent privately and
have not yet sent to a group (or to confirm), the bot's memory of its recent replies to their
commands and hints in groups (a few minutes' worth), and their reports of
problems with questions (made privately, like private answers; the sentence they wrote may say
who they are, so it goes too), and their answers in a group run still going. Kept, without
their identity: their answers in finished group runs and
their points in group standings (`run_scores`), because they are part of the group's history
that other members and admins see (reveal counts, participation, per-question statistics,
standings).
Those rows get a pseudonym in place of the user id: a random negative number (Telegram user ids
are positive), the same for all of this person's group rows so a run still counts them once, and
stored nowhere else, so it cannot be linked back to them. A run they pushed or a schedule they
created stays, with its author left empty.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.store.conn import Conn
from bot.store.interface import Engine
from bot.store.row_changes import USERS


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What was removed (counts), for the confirmation and the operator's command."""

    profile: bool
    private_attempts: int
    private_answers: int
    review_items: int
    reminders: int
    group_answers_kept: int
    problem_reports: int = 0


def pseudonym() -> int:
    """A random negative id: never a Telegram user's, and not derived from theirs."""
    return -(secrets.randbelow(2**62) + 1)


class ForgetStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def forget(self, user_id: int) -> Forgotten:
        alias = pseudonym()

        async def erase(conn: Conn) -> Forgotten:
            async def run(sql: str, *args: object) -> int:
                async with conn.execute(sql, args) as cursor:
                    return int(cursor.rowcount)

            answers = await run(
                """DELETE FROM answers WHERE attempt_id IN (
                       SELECT id FROM attempts WHERE kind = 'private' AND user_id = ?)""",
                user_id,
            )
            await run(
                """DELETE FROM review_inbox WHERE attempt_id IN (
                       SELECT id FROM attempts WHERE kind = 'private' AND user_id = ?)""",
                user_id,
            )
            attempts = await run("DELETE FROM attempts WHERE kind = 'private' AND user_id = ?",
                                 user_id)  # fmt: skip
            # A run still going is not history yet: their answers there go, so that if they
            # answer on they are one player on its board, not two (the pseudonym beside them).
            await run(
                """DELETE FROM answers WHERE user_id = ? AND attempt_id IN (
                       SELECT id FROM attempts WHERE kind = 'group' AND status = 'active')""",
                user_id,
            )
            kept = await run("UPDATE answers SET user_id = ? WHERE user_id = ?", alias, user_id)
            # Their points in group standings stay, under the same pseudonym as their answers.
            await run("UPDATE run_scores SET user_id = ? WHERE user_id = ?", alias, user_id)
            await run("DELETE FROM group_members WHERE user_id = ?", user_id)
            await run("DELETE FROM practice_sets WHERE user_id = ?", user_id)
            await run("DELETE FROM practice_seen WHERE user_id = ?", user_id)
            await run("DELETE FROM review_inbox WHERE user_id = ?", user_id)
            await run("DELETE FROM pending_selections WHERE user_id = ?", user_id)
            items = await run("DELETE FROM review_items WHERE user_id = ?", user_id)
            await run("DELETE FROM review_log WHERE user_id = ?", user_id)
            await run("DELETE FROM review_ratings WHERE user_id = ?", user_id)
            await run("DELETE FROM review_notices WHERE user_id = ?", user_id)
            await run("DELETE FROM review_sessions WHERE user_id = ?", user_id)
            reminders = await run("DELETE FROM reminders WHERE user_id = ?", user_id)
            # When their reminder was next due (bot/store/daily_dues.py): keyed by their id.
            await run("DELETE FROM daily_dues WHERE kind = 'remind' AND ident = ?", user_id)
            reports = await run("DELETE FROM problem_reports WHERE user_id = ?", user_id)
            await run("DELETE FROM pending_uploads WHERE user_id = ?", user_id)
            await run("DELETE FROM group_seen WHERE user_id = ?", user_id)
            await run("DELETE FROM courtesy_replies WHERE user_id = ?", user_id)
            await run("UPDATE attempts SET user_id = NULL WHERE kind = 'group' AND user_id = ?",
                      user_id)  # fmt: skip
            await run("UPDATE schedules SET created_by = NULL WHERE created_by = ?", user_id)
            await run(
                "UPDATE uploaded_quizzes SET uploaded_by = NULL WHERE uploaded_by = ?", user_id
            )
            profile = await run("DELETE FROM users WHERE id = ?", user_id)
            await conn.announce(USERS, user_id)  # no worker keeps their choices either
            return Forgotten(profile > 0, attempts, answers, items, reminders, kept, reports)

        forgotten = await self.db.write(erase)
        self.db.forget_cached(user_id)
        return forgotten
