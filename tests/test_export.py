"""`quizbot export`: every answer in the CSV, ids from the content; bad calls fail clearly."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import pytest

from bot.cli import export
from bot.core.engine import option_orders
from bot.core.exam import ExamClock
from bot.core.kinds import NUMBER_RIGHT, QuestionKind
from bot.store import Database, LearnerStore
from bot.store.practice_sets import PracticeStore
from bot.store.reviews import ReviewStore
from bot.usecases.practice_outcomes import PracticeAnswered, PracticeQuestion
from bot.usecases.practice_session import PracticeSession
from tests.e2e.harness import shipped_catalog

QUIZ = "gradient-checkpointing"


async def test_export_all_to_stdout(db: Database, capsys: pytest.CaptureFixture[str]) -> None:
    quiz = shipped_catalog().quizzes[QUIZ]
    learners = LearnerStore(db)
    for user, option in ((7, quiz.questions[0].correct), (8, (quiz.questions[0].correct + 1) % 4)):
        attempt_id = await learners.start_attempt(
            user, QUIZ, option_orders(quiz, random.Random(0)), 1_790_000_000.5
        )
        attempt = await learners.attempt(attempt_id)
        assert attempt is not None
        await learners.record_answer(
            attempt,
            0,
            option,
            option == quiz.questions[0].correct,
            "wo",
            1_790_000_001.25,
            question_id=quiz.questions[0].id,
            option_id=quiz.questions[0].options[option].id,
        )
    assert export.main(["--all", "--db", str(db.path)]) == 0
    out = capsys.readouterr().out
    exported = list(csv.DictReader(io.StringIO(out)))
    assert [(r["user_id"], r["is_correct"], r["language"]) for r in exported] == [
        ("7", "right", "wo"),
        ("8", "wrong", "wo"),
    ]
    assert exported[0]["answered_at"] == "2026-09-21T14:13:21.250Z"
    assert (
        exported[1]["option_id"]
        == quiz.questions[0].options[(quiz.questions[0].correct + 1) % 4].id
    )
    assert exported[0]["chat_id"] == "7" and exported[0]["kind"] == "private"
    assert exported[0]["elapsed_ms"] == ""


def test_export_refuses_a_missing_database(tmp_path: Path) -> None:
    assert export.main(["--all", "--db", str(tmp_path / "nope.sqlite3")]) == 1


@pytest.mark.parametrize("out", ["missing/answers.csv", "."])
async def test_export_to_a_file_it_cannot_write_says_which(
    db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str
) -> None:
    """`--out` in a folder that does not exist, or naming a folder: a traceback, before."""
    target = tmp_path / out
    assert export.main(["--all", "--db", str(db.path), "--out", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"quizbot export: cannot write {target}: ") and len(err.splitlines()) == 1


def test_export_needs_exactly_one_scope() -> None:
    with pytest.raises(SystemExit):
        export.main(["--chat", "1", "--all"])
    with pytest.raises(SystemExit):
        export.main(["--format", "csv"])


async def test_export_writes_what_was_typed(
    db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    learners = LearnerStore(db)
    attempt_id = await learners.start_attempt(9, QUIZ, ((), (0, 1)), 1_790_000_000.0)
    attempt = await learners.attempt(attempt_id)
    assert attempt is not None
    await learners.record_answer(
        attempt, 0, NUMBER_RIGHT, True, "fr", 1_790_000_001.0, question_id="n", option_id="",
        typed=("0,5 Go", 0.5),
    )  # fmt: skip
    assert export.main(["--all", "--db", str(db.path)]) == 0
    [row] = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert (row["typed"], row["option_id"], row["option"], row["is_correct"]) == (
        "0,5 Go", "", "", "right"
    )  # fmt: skip


async def test_export_writes_the_selected_set_and_its_score(
    db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    quiz = shipped_catalog().quizzes[QUIZ]
    index, question = next(
        (i, q) for i, q in enumerate(quiz.questions) if q.kind is QuestionKind.MULTIPLE
    )
    learners = LearnerStore(db)
    orders = option_orders(quiz, random.Random(0))
    attempt_id = await learners.start_attempt(10, QUIZ, orders, 1_790_000_000.0)
    attempt = await learners.attempt(attempt_id)
    assert attempt is not None
    right, wrong = (
        sorted(question.key)[0],
        next(i for i in range(len(question.options)) if i not in question.key),
    )
    ids = ",".join(question.options[i].id for i in sorted((right, wrong)))
    await learners.record_answer(
        attempt, index, min(right, wrong), False, "en", 1_790_000_001.0,
        question_id=question.id, option_id=question.options[min(right, wrong)].id,
        selected_ids=ids, score=0.0,
    )  # fmt: skip
    assert export.main(["--all", "--db", str(db.path)]) == 0
    [row] = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    texts = " | ".join(question.options[i].text.get("en") for i in sorted((right, wrong)))
    assert (row["option_id"], row["option"], row["score"], row["is_correct"]) == (
        ids, texts, "0", "wrong"
    )  # fmt: skip


async def test_export_neutralises_cells_a_spreadsheet_would_run(
    db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    """A learner types `=HYPERLINK(...)` as a number answer: the teacher's spreadsheet must show
    it as text, not run it (the dashboard's CSV already did; the export wrote it raw)."""
    learners = LearnerStore(db)
    typed = ['=HYPERLINK("http://x","y")', "+1", "-2+3", "@SUM(A1)", "\t=1", "0,5 Go", "'=1"]
    for user, text in enumerate(typed, start=20):
        attempt_id = await learners.start_attempt(user, QUIZ, ((), (0, 1)), 1_790_000_000.0)
        attempt = await learners.attempt(attempt_id)
        assert attempt is not None
        await learners.record_answer(
            attempt, 0, NUMBER_RIGHT, False, "fr", 1_790_000_001.0, question_id="n",
            option_id="", typed=(text, 0.5),
        )  # fmt: skip
    assert export.main(["--all", "--db", str(db.path)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["typed"] for r in rows] == [
        "'=HYPERLINK(\"http://x\",\"y\")", "'+1", "'-2+3", "'@SUM(A1)", "'\t=1", "0,5 Go", "''=1"
    ]  # fmt: skip
    assert [r["user_id"] for r in rows] == [str(u) for u in range(20, 27)]


async def test_export_carries_exam_answers_marked_as_exams(
    db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    """Newcomer walk item 10: an exam's answers live in its practice set, not in `answers`, and
    the export left them out. Each answered question of a finished exam is a row of kind
    `exam`, its mark as is_correct; the learner's own chat exports it too."""
    catalog = shipped_catalog()
    practice = PracticeSession(
        catalog, PracticeStore(db), ReviewStore(db), clock=lambda: 1_790_000_000.0
    )
    asked = await practice.start_exam(9, QUIZ, ExamClock.PER_QUESTION, 30)
    assert isinstance(asked, PracticeQuestion)
    marks = []
    while True:
        right = [p for p, option in enumerate(asked.order) if option in asked.question.key]
        pick = right[0] if asked.index else next(p for p in range(4) if p not in right)
        marks.append((asked.question.id, "wrong" if asked.index == 0 else "right"))
        outcome = await practice.answer(9, asked.set_id, asked.index, pick)
        assert isinstance(outcome, PracticeAnswered)
        if outcome.following is None:
            break
        asked = outcome.following
    for scope in (["--all"], ["--chat", "9"]):
        assert export.main([*scope, "--db", str(db.path)]) == 0
        exported = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
        assert [(r["question_id"], r["is_correct"]) for r in exported] == marks
        assert {(r["kind"], r["user_id"], r["chat_id"], r["quiz_id"]) for r in exported} == {
            ("exam", "9", "9", QUIZ)
        }
        assert all(r["question"] for r in exported)  # the texts from the content
