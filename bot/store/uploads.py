"""Uploaded quizzes of study groups: every version's source, who sent it and when."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.store.conn import Conn
from bot.store.interface import Engine
from bot.store.location import Location
from bot.store.oneshot import read_rows
from bot.store.row_changes import GROUPS


@dataclass(frozen=True, slots=True)
class UploadedQuiz:
    chat_id: int
    quiz_id: str
    version: int
    file_name: str
    format: str
    source: str
    uploaded_by: int | None
    uploaded_at: float
    deleted_at: float | None = None
    guide: str | None = None  # picked by an admin when the file names none (migration 032)
    # JSON file id -> served id, when a replaced quiz's questions kept their ids (migration 037)
    question_ids: str | None = None


def _row(row: aiosqlite.Row) -> UploadedQuiz:
    return UploadedQuiz(
        row["chat_id"], row["quiz_id"], row["version"], row["file_name"], row["format"],
        row["source"], row["uploaded_by"], row["uploaded_at"], row["deleted_at"], row["guide"],
        row["question_ids"],
    )  # fmt: skip


class UploadStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def add(
        self,
        chat_id: int,
        quiz_id: str,
        file_name: str,
        fmt: str,
        source: str,
        uploaded_by: int | None,
        now: float,
        *,
        question_ids: str | None = None,
        removed: tuple[str, ...] = (),
        served_id: str = "",
    ) -> UploadedQuiz:
        """A new version: 1 for a new quiz id in this group, else one more than the last (a quiz
        deleted earlier continues its numbering, so answers never meet two sources at one
        version). It keeps the guide an admin picked for the last version. `question_ids`: the
        ids its questions are served under (`kept_ids`); the questions `removed` from the quiz
        (served as `served_id`) leave every member's review queue in the same write, as a
        deleted quiz's do (`delete`); their answers keep their history."""

        async def insert(conn: Conn) -> UploadedQuiz:
            async with conn.execute(
                """INSERT INTO uploaded_quizzes
                     (chat_id, quiz_id, version, file_name, format, source, uploaded_by,
                      uploaded_at, guide, question_ids)
                   SELECT ?, ?, coalesce(max(version), 0) + 1, ?, ?, ?, ?, ?,
                          (SELECT l.guide FROM uploaded_quizzes l
                            WHERE l.chat_id = ? AND l.quiz_id = ?
                            ORDER BY l.version DESC LIMIT 1), ?
                     FROM uploaded_quizzes WHERE chat_id = ? AND quiz_id = ?
                   RETURNING *""",
                (
                    chat_id,
                    quiz_id,
                    file_name,
                    fmt,
                    source,
                    uploaded_by,
                    now,
                    chat_id,
                    quiz_id,
                    question_ids,
                    chat_id,
                    quiz_id,
                ),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            if removed:
                gone = [(served_id, question_id) for question_id in removed]
                await conn.executemany(
                    "DELETE FROM review_items WHERE quiz_id = ? AND question_id = ?", gone
                )
                await conn.executemany(
                    """DELETE FROM review_inbox WHERE question_id = ? AND attempt_id IN (
                           SELECT id FROM attempts WHERE quiz_id = ?)""",
                    [(question_id, served_id) for question_id in removed],
                )
            return _row(row)

        return await self.db.write(insert)

    async def latest(self, chat_id: int, quiz_id: str) -> UploadedQuiz | None:
        """The group's last version of the quiz, deleted or not: what a new upload of the same
        id replaces (its questions keep their ids)."""
        async with self.db.reader.execute(
            """SELECT * FROM uploaded_quizzes WHERE chat_id = ? AND quiz_id = ?
                ORDER BY version DESC LIMIT 1""",
            (chat_id, quiz_id),
        ) as cur:
            row = await cur.fetchone()
        return _row(row) if row else None

    async def used_question_ids(self, chat_id: int, quiz_id: str, served_id: str) -> set[str]:
        """Every question id the group's quiz was ever served under, as far as the store can
        tell: the ids kept with its versions (migration 037), and those its answers and problem
        reports carry (versions before it served their files' own ids). A new question never
        takes one of them."""
        used: set[str] = set()
        async with self.db.reader.execute(
            """SELECT question_ids FROM uploaded_quizzes
                WHERE chat_id = ? AND quiz_id = ? AND question_ids IS NOT NULL""",
            (chat_id, quiz_id),
        ) as cur:
            async for row in cur:
                used.update(_served_ids(str(row[0])).keys())
        async with self.db.reader.execute(
            """SELECT DISTINCT an.question_id FROM attempts a
                 JOIN answers an ON an.attempt_id = a.id
                WHERE a.quiz_id = ? AND an.question_id IS NOT NULL
               UNION
               SELECT question_id FROM problem_reports WHERE quiz_id = ?""",
            (served_id, served_id),
        ) as cur:
            used.update([str(row[0]) async for row in cur])
        return used

    async def used_option_ids(
        self, chat_id: int, quiz_id: str, served_id: str
    ) -> dict[str, set[str]]:
        """Served question id -> every option id it was ever served under, as far as the store
        can tell (as `used_question_ids`: the maps kept with its versions, and the options its
        answers and reviews chose). A new option of a kept question never takes one of them."""
        used: dict[str, set[str]] = {}
        async with self.db.reader.execute(
            """SELECT question_ids FROM uploaded_quizzes
                WHERE chat_id = ? AND quiz_id = ? AND question_ids IS NOT NULL""",
            (chat_id, quiz_id),
        ) as cur:
            async for row in cur:
                for question, options in _served_ids(str(row[0])).items():
                    used.setdefault(question, set()).update(options)
        async with self.db.reader.execute(
            """SELECT DISTINCT an.question_id, an.option_id, an.selected_ids FROM attempts a
                 JOIN answers an ON an.attempt_id = a.id
                WHERE a.quiz_id = ? AND an.question_id IS NOT NULL
               UNION
               SELECT question_id, option_id, NULL FROM review_log
                WHERE quiz_id = ? AND option_id IS NOT NULL""",
            (served_id, served_id),
        ) as cur:
            async for question, option, selected in cur:
                chosen = {option or "", *str(selected or "").split(",")} - {""}
                used.setdefault(str(question), set()).update(str(o) for o in chosen)
        return used

    async def current(self) -> list[UploadedQuiz]:
        """The latest version of every quiz not deleted, in every group, oldest first."""
        async with self.db.reader.execute(
            """SELECT u.* FROM uploaded_quizzes u
                WHERE u.deleted_at IS NULL
                  AND u.version = (SELECT max(v.version) FROM uploaded_quizzes v
                                    WHERE v.chat_id = u.chat_id AND v.quiz_id = u.quiz_id)
                ORDER BY u.uploaded_at, u.chat_id, u.quiz_id"""
        ) as cur:
            return [_row(row) async for row in cur]

    async def current_versions(self) -> dict[tuple[int, str], tuple[int, str | None]]:
        """(chat id, quiz id) -> (latest version, its picked guide) of every quiz not deleted:
        what a worker compares with what it serves (cheap: no sources read)."""
        async with self.db.reader.execute(
            """SELECT u.chat_id, u.quiz_id, u.version, u.guide FROM uploaded_quizzes u
                WHERE u.deleted_at IS NULL
                  AND u.version = (SELECT max(v.version) FROM uploaded_quizzes v
                                    WHERE v.chat_id = u.chat_id AND v.quiz_id = u.quiz_id)"""
        ) as cur:
            return {
                (int(row[0]), str(row[1])): (int(row[2]), None if row[3] is None else str(row[3]))
                async for row in cur
            }

    async def set_guide(self, chat_id: int, quiz_id: str, version: int, guide: str | None) -> bool:
        """An admin picked the guide of the group's quiz at `version` (None: no guide); False
        when that version is no longer the quiz's current one (replaced or deleted since)."""

        async def update(conn: Conn) -> bool:
            cur = await conn.execute(
                """UPDATE uploaded_quizzes SET guide = ?
                    WHERE chat_id = ? AND quiz_id = ? AND version = ? AND deleted_at IS NULL
                      AND version = (SELECT max(v.version) FROM uploaded_quizzes v
                                      WHERE v.chat_id = ? AND v.quiz_id = ?)""",
                (guide, chat_id, quiz_id, version, chat_id, quiz_id),
            )
            return cur.rowcount > 0

        return await self.db.write(update)

    async def quiz_ids(self, chat_id: int) -> set[str]:
        """Every quiz id the group ever uploaded, deleted ones too."""
        async with self.db.reader.execute(
            "SELECT DISTINCT quiz_id FROM uploaded_quizzes WHERE chat_id = ?", (chat_id,)
        ) as cur:
            return {str(row[0]) async for row in cur}

    async def version(self, chat_id: int, quiz_id: str, version: int) -> UploadedQuiz | None:
        """One version of a group's quiz, with its source."""
        async with self.db.reader.execute(
            "SELECT * FROM uploaded_quizzes WHERE chat_id = ? AND quiz_id = ? AND version = ?",
            (chat_id, quiz_id, version),
        ) as cur:
            row = await cur.fetchone()
        return _row(row) if row else None

    async def groups_seen(self, user_id: int, limit: int) -> list[tuple[int, str]]:
        """Groups the bot is in where this user was seen (`group_seen`: added the bot, or
        confirmed as an admin; or points in `run_scores`), (chat id, title), the `limit` most
        recent: the only groups a private upload asks Telegram about."""
        async with self.db.reader.execute(
            """SELECT g.chat_id, g.title, max(s.at) AS last FROM groups g
                 JOIN (SELECT chat_id, seen_at AS at FROM group_seen WHERE user_id = ?
                       UNION ALL
                       SELECT chat_id, scored_at FROM run_scores WHERE user_id = ?) s
                   ON s.chat_id = g.chat_id
                WHERE g.member = 1
                GROUP BY g.chat_id, g.title
                ORDER BY last DESC, g.chat_id
                LIMIT ?""",
            (user_id, user_id, limit),
        ) as cur:
            return [(int(row[0]), str(row[1])) async for row in cur]

    async def seen(self, chat_id: int, user_id: int, now: float) -> None:
        """`user_id` was seen in the group (added the bot, or confirmed as an admin there)."""

        async def upsert(conn: Conn) -> None:
            await conn.execute(
                """INSERT INTO group_seen (chat_id, user_id, seen_at) VALUES (?, ?, ?)
                   ON CONFLICT (chat_id, user_id) DO UPDATE SET seen_at = excluded.seen_at""",
                (chat_id, user_id, now),
            )

        await self.db.write(upsert)

    async def gone(self, chat_id: int, now: float) -> None:
        """Telegram no longer knows the group, or the bot was removed without our seeing it:
        it is no longer offered. Only the flag: its settings, schedules, quizzes and history
        stay, and the next update from the group lists it again (`ensure_group`)."""

        async def update(conn: Conn) -> None:
            await conn.execute(
                "UPDATE groups SET member = 0, updated_at = ? WHERE chat_id = ?", (now, chat_id)
            )
            await conn.announce(GROUPS, chat_id)  # kept in memory: store/group_settings_cache.py

        await self.db.write(update)

    async def delete(self, chat_id: int, quiz_id: str, now: float, served_id: str) -> bool:
        """Hide a group's quiz (every version); False if it has none shown. Its questions leave
        every member's review queue in the same write (`served_id`: the id its answers and
        queue items carry), with the misses not yet queued: a deleted quiz is not reviewed, and
        /review, /stats and the dashboard count the same queue. Answers keep their history."""

        async def hide(conn: Conn) -> bool:
            cur = await conn.execute(
                """UPDATE uploaded_quizzes SET deleted_at = ?
                    WHERE chat_id = ? AND quiz_id = ? AND deleted_at IS NULL""",
                (now, chat_id, quiz_id),
            )
            if cur.rowcount == 0:
                return False
            await conn.execute("DELETE FROM review_items WHERE quiz_id = ?", (served_id,))
            await conn.execute(
                """DELETE FROM review_inbox WHERE attempt_id IN (
                       SELECT id FROM attempts WHERE quiz_id = ?)""",
                (served_id,),
            )
            return True

        return await self.db.write(hide)


def _served_ids(stored: str) -> dict[str, set[str]]:
    """Served question id -> served option ids, of a stored id map (`UploadedQuiz.question_ids`:
    a question's value is its served id, or `{"id": ..., "options": {file: served}}` when its
    options were matched too, bot/content/kept_ids.py); empty if unreadable."""
    try:
        ids = json.loads(stored)
    except ValueError:
        return {}
    if not isinstance(ids, dict):
        return {}
    served: dict[str, set[str]] = {}
    for kept in ids.values():
        options = kept.get("options") if isinstance(kept, dict) else None
        question = kept.get("id") if isinstance(kept, dict) else kept
        if question is None:
            continue
        mine = served.setdefault(str(question), set())
        if isinstance(options, dict):
            mine.update(str(o) for o in options.values())
    return served


def uploaded_source(where: Location | Path, chat_id: int, quiz_id: str) -> tuple[str, str] | None:
    """(file name, source) of a group's quiz as it is served now, read-only: for
    `quizbot content export --group`, which may run beside the live bot (either engine)."""
    rows = read_rows(
        where,
        """SELECT file_name, source FROM uploaded_quizzes
            WHERE chat_id = ? AND quiz_id = ? AND deleted_at IS NULL
            ORDER BY version DESC LIMIT 1""",
        (chat_id, quiz_id),
    )
    return next(((str(r[0]), str(r[1])) for r in rows), None)


def uploaded_sources(
    where: Location | Path, *, deleted: bool = True
) -> list[tuple[int, str, str, str, str | None]]:
    """(chat id, quiz id, file name, source, question ids) of the latest version of every
    group's quiz, read-only: deleted ones too for `quizbot export` (their answers keep their
    history); not with `deleted=False`, as the bot serves them (`quizbot web`). The question
    ids (`UploadedQuiz.question_ids`) give the rebuilt quiz the ids its answers carry."""
    rows = read_rows(
        where,
        """SELECT u.chat_id, u.quiz_id, u.file_name, u.source, u.question_ids
             FROM uploaded_quizzes u
            WHERE u.version = (SELECT max(v.version) FROM uploaded_quizzes v
                                WHERE v.chat_id = u.chat_id AND v.quiz_id = u.quiz_id)
              AND (? OR u.deleted_at IS NULL)
            ORDER BY u.chat_id, u.quiz_id""",
        (deleted,),
    )
    return [(int(r[0]), str(r[1]), str(r[2]), str(r[3]), None if r[4] is None else str(r[4]))
            for r in rows]  # fmt: skip
