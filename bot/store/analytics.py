"""Read-only queries behind /stats, /groupstats and the CSV export.

Each query starts from an index on who is asking (a user, a chat) so its cost follows that
learner's or group's own history, not the size of the whole `answers` table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.store.interface import Reading
from bot.store.location import Location
from bot.store.oneshot import read_rows

# (quiz_id, question_id, language, option_id, is_correct, count)
AnswerCount = tuple[str, str, str | None, str, bool, int]
# (quiz_id, question_id, user_id, attempt_id, is_correct, chosen)
ItemRow = tuple[str, str, int, int, bool, str]


@dataclass(frozen=True, slots=True)
class GroupTotals:
    runs: int
    finished: int
    members: int  # distinct members who answered at least once
    answers: int
    participations: int  # (run, member) pairs: members per run, summed over runs


class AnalyticsStore:
    def __init__(self, db: Reading) -> None:
        self.db = db

    # -- a learner ----------------------------------------------------------------------------

    async def finished_attempts(self, user_id: int) -> list[tuple[str, float, int, int]]:
        """(quiz_id, finished_at, correct, answered) of each finished private attempt; a
        flashcard's rating (option `rating:...`) is not scored, so not counted.

        `+an.user_id` keeps SQLite on the answers' primary key (attempt first) instead of
        scanning all of the learner's answers once per attempt.
        """
        async with self.db.reader.execute(
            """SELECT a.quiz_id, a.finished_at, coalesce(sum(an.is_correct), 0), count(an.user_id)
               FROM attempts a
               LEFT JOIN answers an ON an.attempt_id = a.id AND +an.user_id = a.user_id
                    AND coalesce(an.option_id, '') NOT LIKE 'rating:%'
               WHERE a.user_id = ? AND a.kind = 'private' AND a.status = 'finished'
               GROUP BY a.id""",
            (user_id,),
        ) as cur:
            return [(str(q), float(f), int(c), int(n)) for q, f, c, n in await cur.fetchall()]

    async def finished_exams(self, user_id: int) -> list[tuple[str, float, int, int]]:
        """(quiz_id, finished_at, correct, questions) of each finished exam: an exam's answers
        live in its practice set, not in `answers`, and it is one quiz's (the first question's);
        a question left unanswered when the time ran out counts as asked."""
        async with self.db.reader.execute(
            """SELECT questions, finished_at, correct FROM practice_sets
               WHERE user_id = ? AND kind = 'exam' AND status = 'finished'""",
            (user_id,),
        ) as cur:
            rows = await cur.fetchall()
        exams = []
        for questions, finished_at, correct in rows:
            keys = json.loads(str(questions))
            if keys:
                quiz_id = str(keys[0]).partition("/")[0]
                exams.append((quiz_id, float(finished_at), int(correct), len(keys)))
        return exams

    async def accuracy_by_quiz(self, user_id: int) -> list[tuple[str, int, int]]:
        """(quiz_id, right, answered) over every answer the learner gave, private or in groups
        (flashcards' ratings left out: not scored)."""
        async with self.db.reader.execute(
            """SELECT a.quiz_id, sum(an.is_correct), count(*)
               FROM answers an JOIN attempts a ON a.id = an.attempt_id
               WHERE an.user_id = ? AND coalesce(an.option_id, '') NOT LIKE 'rating:%'
               GROUP BY a.quiz_id""",
            (user_id,),
        ) as cur:
            return [(str(q), int(r), int(n)) for q, r, n in await cur.fetchall()]

    async def activity_since(self, user_id: int, since: float) -> list[float]:
        """Times of the learner's answers, reviews and practice since `since`, for the streak (a
        practice set, exam or practice round of missed questions counts by the time of its
        latest answer)."""
        async with self.db.reader.execute(
            """SELECT answered_at FROM answers WHERE user_id = ?1 AND answered_at >= ?2
               UNION SELECT answered_at FROM review_log WHERE user_id = ?1 AND answered_at >= ?2
               UNION SELECT shown_at FROM practice_sets
                   WHERE user_id = ?1 AND answered > 0 AND shown_at >= ?2
               UNION SELECT answered_at FROM review_sessions
                   WHERE user_id = ?1 AND mode = 'practice' AND answered_at >= ?2""",
            (user_id, since),
        ) as cur:
            return [float(row[0]) for row in await cur.fetchall()]

    # -- a group ------------------------------------------------------------------------------

    async def group_totals(self, chat_id: int) -> GroupTotals:
        async with self.db.reader.execute(
            """SELECT count(*), coalesce(sum(status = 'finished'), 0) FROM attempts
               WHERE chat_id = ? AND kind = 'group'""",
            (chat_id,),
        ) as cur:
            runs_row = await cur.fetchone()
        async with self.db.reader.execute(
            """SELECT count(DISTINCT an.user_id), count(*),
                      count(DISTINCT an.attempt_id || ':' || an.user_id)
               FROM attempts a JOIN answers an ON an.attempt_id = a.id
               WHERE a.chat_id = ? AND a.kind = 'group'""",
            (chat_id,),
        ) as cur:
            row = await cur.fetchone()
        assert runs_row is not None and row is not None
        return GroupTotals(
            int(runs_row[0]), int(runs_row[1]), int(row[0]), int(row[1]), int(row[2])
        )

    async def group_answer_counts(self, chat_id: int) -> list[AnswerCount]:
        """(quiz_id, question_id, language, option_id, is_correct, count) of a group, by content
        ids: a question keeps its history wherever it moves in its quiz. A number question's
        answers have no option: their "option" is the value typed, as `=<value>` (`TYPED`); a
        select-all answer's is its submitted set, `+a,c` (`bot.core.stats.SELECTED`), so that it
        counts once per answer and each chosen option can be counted."""
        async with self.db.reader.execute(
            """SELECT a.quiz_id, an.question_id, an.language,
                      CASE WHEN an.typed_value IS NOT NULL
                           THEN '=' || CAST(an.typed_value AS TEXT)
                           WHEN an.selected_ids IS NOT NULL THEN '+' || an.selected_ids
                           ELSE an.option_id END,
                      an.is_correct, count(*)
               FROM attempts a JOIN answers an ON an.attempt_id = a.id
               WHERE a.chat_id = ? AND a.kind = 'group' AND an.question_id != ''
               GROUP BY 1, 2, 3, 4, 5""",
            (chat_id,),
        ) as cur:
            return [
                (str(q), str(i), lang, str(o or ""), bool(c), int(n))
                for q, i, lang, o, c, n in await cur.fetchall()
            ]

    async def item_responses(
        self, chat_id: int | None = None, quiz_id: str | None = None, since: float = 0.0
    ) -> list[ItemRow]:
        """(quiz_id, question_id, user_id, attempt_id, is_correct, chosen) of each learner's
        first sitting of each quiz (their lowest attempt id among the answers read), for item
        analysis (bot/core/item_analysis.py): a group's runs (`chat_id`), or every private
        attempt and group run (None: the content's authors). `chosen` is the option id, a
        select-all answer's set ("a,c"), or "" for a number answer (no option). Private and
        group only: an exam or a practice set mixes questions, and reviews are not sittings.

        The first sitting is picked here, not only in the core: a group with 1,000 runs of 25
        members holds ~180,000 answers, which took 4 s to read and analyse in Python on a
        loaded machine (0.5 s this way); its first sittings are a few hundred rows. A group's rows
        start from attempts_by_chat; the authors' read is a one-shot command's whole scan."""
        # Two whole statements rather than one assembled from pieces (the SQL scan forbids
        # building SQL): a group's keeps its chat_id condition indexable (attempts_by_chat).
        sql = _GROUP_FIRST_SITTINGS if chat_id is not None else _ALL_FIRST_SITTINGS
        quiz = quiz_id or ""
        args: list[object] = [quiz, quiz, since]
        if chat_id is not None:
            args.insert(0, chat_id)
        async with self.db.reader.execute(
            sql,
            args,
        ) as cur:
            return [
                (str(q), str(i), int(u), int(at), bool(c), str(o or ""))
                for q, i, u, at, c, o in await cur.fetchall()
            ]


# ItemRow per answer of each learner's first sitting of each quiz, in one group's runs.
_GROUP_FIRST_SITTINGS = """WITH mine AS (
    SELECT a.quiz_id, an.question_id, an.user_id, an.attempt_id, an.is_correct,
           CASE WHEN an.typed_value IS NOT NULL THEN ''
                WHEN an.selected_ids IS NOT NULL THEN an.selected_ids
                ELSE an.option_id END AS chosen
    FROM attempts a JOIN answers an ON an.attempt_id = a.id
    WHERE a.chat_id = ? AND a.kind = 'group' AND an.question_id != ''
      AND (? = '' OR a.quiz_id = ?) AND an.answered_at >= ?),
firsts AS (
    SELECT user_id, quiz_id, min(attempt_id) AS attempt_id FROM mine GROUP BY user_id, quiz_id)
SELECT m.quiz_id, m.question_id, m.user_id, m.attempt_id, m.is_correct, m.chosen
FROM mine m JOIN firsts f ON f.user_id = m.user_id AND f.quiz_id = m.quiz_id
                         AND f.attempt_id = m.attempt_id"""

# The same over every private attempt and group run (the content's authors' view).
_ALL_FIRST_SITTINGS = """WITH mine AS (
    SELECT a.quiz_id, an.question_id, an.user_id, an.attempt_id, an.is_correct,
           CASE WHEN an.typed_value IS NOT NULL THEN ''
                WHEN an.selected_ids IS NOT NULL THEN an.selected_ids
                ELSE an.option_id END AS chosen
    FROM attempts a JOIN answers an ON an.attempt_id = a.id
    WHERE a.kind IN ('private', 'group') AND an.question_id != ''
      AND (? = '' OR a.quiz_id = ?) AND an.answered_at >= ?),
firsts AS (
    SELECT user_id, quiz_id, min(attempt_id) AS attempt_id FROM mine GROUP BY user_id, quiz_id)
SELECT m.quiz_id, m.question_id, m.user_id, m.attempt_id, m.is_correct, m.chosen
FROM mine m JOIN firsts f ON f.user_id = m.user_id AND f.quiz_id = m.quiz_id
                         AND f.attempt_id = m.attempt_id"""


TYPED = "="  # group_answer_counts: a typed value where an option id would be ("=0.4")


EXPORT_COLUMNS = (
    "answered_at",
    "chat_id",
    "kind",
    "attempt_id",
    "user_id",
    "quiz_id",
    "question_id",
    "option_id",
    "is_correct",
    "language",
    "elapsed_ms",
    "content_version",
    "typed_text",
    "selected_ids",
    "score",
)


# answered_at, chat_id, kind, attempt_id, user_id, quiz_id, question_id, option_id, is_correct,
# language, elapsed_ms, content_version, typed_text (a number question's reply as typed),
# selected_ids and score (a select-all answer's submitted set, 'a,c', and its partial credit)
ExportRow = tuple[
    float,
    int,
    str,
    int,
    int,
    str,
    str,
    str,
    bool,
    str | None,
    int | None,
    str | None,
    str | None,
    str | None,
    float | None,
]


def export_rows(store: Location | Path, chat_id: int | None) -> Iterator[ExportRow]:
    """Every answer (of one chat, or all), oldest first, streamed: exports can be large.

    A read-only connection of its own (bot/store/oneshot.py), on either engine: the export is a
    one-shot command that may run beside the live bot. Errors come out as `StoreError`.
    """
    where, args = ("WHERE a.chat_id = ?", (chat_id,)) if chat_id is not None else ("", ())
    rows = read_rows(
        store,
        f"""SELECT an.answered_at, a.chat_id, a.kind, an.attempt_id, an.user_id, a.quiz_id,
                   an.question_id, an.option_id, an.is_correct, an.language, an.elapsed_ms,
                   an.content_version, an.typed_text, an.selected_ids, an.score
            FROM answers an JOIN attempts a ON a.id = an.attempt_id {where}
            ORDER BY an.answered_at, an.attempt_id, an.question_index, an.user_id""",
        args,
    )
    for (
        at, chat, kind, attempt, user, quiz, q_id, o_id, right, lang, ms, version, typed, picked,
        score,
    ) in rows:  # fmt: skip
        yield (
            float(at),
            int(chat),
            str(kind),
            int(attempt),
            int(user),
            str(quiz),
            q_id or "",
            o_id or "",
            bool(right),
            lang,
            ms,
            version,
            typed,
            picked,
            None if score is None else float(score),
        )


def export_exam_rows(store: Location | Path, chat_id: int | None) -> Iterator[ExportRow]:
    """Every answered question of every ended exam (of one learner's chat, or all), oldest
    exam first, as export rows of kind `exam`: an exam's answers live in its practice set, not
    in `answers`. The set keeps each question's mark (r, w, or t: the time ran out, counted
    wrong) but neither the option picked nor a time per answer, so those cells stay empty and
    every row carries the exam's end; `attempt_id` is the exam's own id (a practice set)."""
    where, args = ("AND user_id = ?", (chat_id,)) if chat_id is not None else ("", ())
    rows = read_rows(
        store,
        f"""SELECT id, user_id, questions, marks, finished_at FROM practice_sets
            WHERE kind = 'exam' AND status IN ('finished', 'abandoned')
              AND finished_at IS NOT NULL {where}
            ORDER BY finished_at, id""",
        args,
    )
    for set_id, user, questions, marks, finished_at in rows:
        keys = json.loads(str(questions))
        for key, mark in zip(keys, str(marks), strict=False):
            quiz_id, _, question_id = str(key).partition("/")
            yield (
                float(finished_at), int(user), "exam", int(set_id), int(user), quiz_id,
                question_id, "", mark == "r", None, None, None, None, None, None,
            )  # fmt: skip
