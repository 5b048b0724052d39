"""`quizbot export`: every answer of a chat (or of all chats) as CSV, for admins' spreadsheets.

It reads the store read-only, SQLite or PostgreSQL (bot/store/oneshot.py), so it can run next
to the live bot. Every answer is stored with its question and option ids and the content
version it was given under, so rows stay attached to the same question when the content is
reordered; the question and option texts (English) come from the current content.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from bot.config import ConfigError, store_location
from bot.content import ContentError, default_content_dir, load_catalog
from bot.content.kept_ids import with_ids
from bot.content.uploads import check_upload, source_bytes
from bot.core.models import Catalog
from bot.csv_cells import SheetWriter
from bot.store import StoreError
from bot.store.analytics import export_exam_rows, export_rows
from bot.store.location import Location
from bot.store.uploads import uploaded_sources
from bot.usecases.quiz_uploads import served_id

HEADER = (
    "answered_at",
    "chat_id",
    "kind",  # private, group, or exam (an exam's answers: no option, its end as answered_at)
    "attempt_id",
    "user_id",
    "quiz_id",
    "question_id",
    "question",
    "option_id",
    "option",
    "is_correct",
    "language",
    "elapsed_ms",
    "content_version",
    "typed",  # a number question's reply, as typed ("0,5 Go"); empty for buttons
    "score",  # a select-all answer's partial credit (0 to 1); empty for other kinds
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbot export", description=__doc__)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--chat", type=int, help="one chat id (a group's, or a learner's)")
    which.add_argument("--all", action="store_true", help="every chat")
    parser.add_argument("--format", choices=["csv"], default="csv")
    parser.add_argument(
        "--db", metavar="PATH|URL", help="SQLite file or postgresql://… (default: env QUIZBOT_DB)"
    )
    parser.add_argument("--content", type=Path, help="content folder, for question/option ids")
    parser.add_argument("--out", type=Path, help="output file (default: standard output)")
    return parser


def iso_utc(moment: float) -> str:
    return (
        datetime.fromtimestamp(moment, UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def csv_rows(db: Location, catalog: Catalog, chat: int | None) -> Iterator[list[object]]:
    """The export's rows; texts left empty where the content no longer has that question."""
    for (
        at,
        chat_id,
        kind,
        attempt,
        user,
        quiz_id,
        q_id,
        o_id,
        right,
        lang,
        ms,
        version,
        typed,
        picked,
        score,
    ) in heapq.merge(export_rows(db, chat), export_exam_rows(db, chat), key=lambda r: r[0]):
        quiz = catalog.known(quiz_id)  # a group's uploaded quiz too
        question = next((q for q in quiz.questions if q.id == q_id), None) if quiz else None
        # A select-all answer: every selected option (ids 'a,c', texts joined by ' | ', in the
        # order of the ids, so a reordered quiz exports the same row).
        ids = picked.split(",") if picked else [o_id]
        by_id = {o.id: o for o in question.options} if question else {}
        chosen = [by_id[i] for i in ids if i in by_id]
        yield [
            iso_utc(at),
            chat_id,
            kind,
            attempt,
            user,
            quiz_id,
            q_id,
            question.prompt.get("en") if question else "",
            ",".join(ids),
            " | ".join(o.text.get("en") for o in chosen),
            "right" if right else "wrong",
            lang or "",
            "" if ms is None else ms,
            version or "",
            typed or "",
            "" if score is None else f"{score:g}",
        ]


def with_uploads(
    catalog: Catalog, db: Location | Path, content: Path, *, deleted: bool = True
) -> Catalog:
    """The catalogue plus the groups' uploaded quizzes (their latest versions, deleted ones too
    unless `deleted` is False), so their answers get question and option texts too."""
    quizzes = []
    for chat_id, quiz_id, file_name, source, ids in uploaded_sources(db, deleted=deleted):
        quiz = check_upload(file_name, source_bytes(source), content).quiz
        if quiz is not None:
            quizzes.append(replace(with_ids(quiz, ids), id=served_id(chat_id, quiz_id)))
    return catalog.with_versions(quizzes)


def write_csv(out: TextIO, db: Location, catalog: Catalog, chat: int | None) -> int:
    writer = SheetWriter(out, lineterminator="\n")  # a typed "=HYPERLINK(...)" stays text
    writer.writerow(HEADER)
    count = 0
    for row in csv_rows(db, catalog, chat):
        writer.writerow(row)
        count += 1
    return count


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        db = store_location(args.db)
        catalog = load_catalog(args.content or default_content_dir())
    except (ConfigError, ContentError) as exc:
        print(f"quizbot export: {exc}", file=sys.stderr)
        return 2
    if db.path is not None and not db.path.is_file():
        print(f"quizbot export: no database at {db}", file=sys.stderr)
        return 1
    try:
        catalog = with_uploads(catalog, db, args.content or default_content_dir())
        with contextlib.ExitStack() as stack:
            out = (
                stack.enter_context(args.out.open("w", encoding="utf-8", newline=""))
                if args.out
                else sys.stdout
            )
            count = write_csv(out, db, catalog, None if args.all else args.chat)
    except StoreError as exc:
        print(f"quizbot export: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # --out in a folder that does not exist, a folder, read-only
        where = args.out or "standard output"
        print(f"quizbot export: cannot write {where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"quizbot export: {count} answers", file=sys.stderr)
    return 0
