"""What a quiz source re-imported from a format keeps of the source file it replaces.

`content export Q --format csv`, edit the sheet, `content import Q.csv --format csv --force` is
an author's round trip, as it is a translator's (`translation_keep.py`). But CSV carries no
select-all or number question and no picture, and writes a true/false question as two plain
options; GIFT carries no picture, unit, description or flashcard; none of them names the guide
or the level. Replacing the source with only what the file carried deleted those questions
(and every translation's text for them) without a word, since the checker had nothing left to
miss. So the new source takes each of those from the file it replaces: the questions the
format cannot hold, in their place; a true/false question's kind; units; pictures; the
description; the guide and level unless the command names them. What the import carries always
wins: a single-choice question deleted from the sheet is deleted.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.content.formats.draft import (
    FLASHCARD,
    MULTIPLE,
    NUMBER,
    SINGLE,
    TRUE_FALSE,
    DraftOption,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
)
from bot.content.numbers import number_answer
from bot.content.problems import Problems
from bot.content.schema import QuestionSource, QuizSource, QuizTranslation
from bot.content.sources import parse_file
from bot.core.models import SOURCE_LANGUAGE

# The question kinds each format's export leaves out (exporter: "N questions left out").
NOT_CARRIED = {
    "csv": frozenset({MULTIPLE, NUMBER}),
    "aiken": frozenset({MULTIPLE, NUMBER, FLASHCARD}),
    "gift": frozenset({FLASHCARD}),
    "qti": frozenset({FLASHCARD}),
}
_NO_PICTURES = frozenset({"csv", "aiken", "gift"})
_TWO_PLAIN_OPTIONS = frozenset({"csv", "aiken"})  # a true/false question comes back as single
_NO_UNITS = frozenset({"gift"})


def replaced_source(path: Path) -> tuple[QuizSource, DraftQuiz] | None:
    """The source file at `path` as its model and a draft (None when there is none); a source
    the checker refuses is None too (the caller says so)."""
    if not path.is_file():
        return None
    parsed = parse_file(path, QuizSource, Problems())
    if parsed is None:
        return None
    quiz = parsed.model
    questions = tuple(_draft(qid, q) for qid, q in quiz.questions.items())
    return quiz, DraftQuiz(quiz.id, quiz.title, SOURCE_LANGUAGE, questions, quiz.description)


def _draft(qid: str, q: QuestionSource) -> DraftQuestion:
    number = number_answer(q)
    return DraftQuestion(
        qid,
        q.prompt,
        tuple(
            DraftOption(text, isinstance(q.answer, list) and oid in q.answer)
            for oid, text in q.options.items()
        ),
        q.explanation,
        kind=q.kind,
        number=number,
        unit=number.unit if number is not None else "",
        # Which pictures the source has, not their bytes: the files stay in media/ as they are.
        image=DraftPicture(q.image.file, b"", q.image.alt) if q.image else None,
        explanation_image=(
            DraftPicture(q.explanation_image.file, b"", q.explanation_image.alt)
            if q.explanation_image
            else None
        ),
    )


def kept_questions(old: DraftQuiz, draft: DraftQuiz, fmt: str) -> tuple[DraftQuiz, list[str]]:
    """`draft` with what `fmt` could not carry taken from `old`, and the ids of the questions
    kept whole. Pictures are left to `kept_pictures` (after the import's own are placed)."""
    before = {q.id: q for q in old.questions}
    questions = [_restored(q, before.get(q.id), fmt) for q in draft.questions]
    have = {q.id for q in questions}
    kept: list[str] = []
    for index, question in enumerate(old.questions):
        if question.kind not in NOT_CARRIED.get(fmt, frozenset()) or question.id in have:
            continue
        earlier = {q.id for q in old.questions[:index]}
        at = max((n + 1 for n, q in enumerate(questions) if q.id in earlier), default=0)
        questions.insert(at, replace(question, image=None, explanation_image=None))
        have.add(question.id)
        kept.append(question.id)
    description = draft.description or old.description
    return replace(draft, questions=tuple(questions), description=description), kept


def _restored(question: DraftQuestion, old: DraftQuestion | None, fmt: str) -> DraftQuestion:
    if old is None:
        return question
    if (
        fmt in _TWO_PLAIN_OPTIONS
        and old.kind == TRUE_FALSE
        and question.kind == SINGLE
        and len(question.options) == 2
    ):
        question = replace(question, kind=TRUE_FALSE)
    if fmt in _NO_UNITS and question.kind == NUMBER == old.kind and not question.unit:
        question = replace(question, unit=old.unit)
    return question


def kept_pictures(placed: DraftQuiz, old: DraftQuiz, kept: list[str], fmt: str) -> DraftQuiz:
    """`placed` with the old source's pictures back on the questions kept whole, and on every
    question when `fmt` carries no pictures at all (what the import carries wins)."""
    before = {q.id: q for q in old.questions}
    questions = []
    for question in placed.questions:
        theirs = before.get(question.id)
        if theirs is not None and (question.id in kept or fmt in _NO_PICTURES):
            question = replace(
                question,
                image=question.image or theirs.image,
                explanation_image=question.explanation_image or theirs.explanation_image,
            )
        questions.append(question)
    return replace(placed, questions=tuple(questions))


def still_complete(path: Path, source: DraftQuiz) -> bool:
    """Whether the translation at `path`, which this import leaves alone, still has a title, a
    description and every question of the new `source` with its prompt, options and
    explanation: only then does its language stay declared complete."""
    parsed = parse_file(path, QuizTranslation, Problems()) if path.is_file() else None
    if parsed is None:
        return False
    tr = parsed.model
    return bool(tr.title and tr.description) and all(
        (mine := tr.questions.get(q.id)) is not None
        and bool(mine.prompt and mine.explanation)
        and len(mine.options) == len(q.options)
        for q in source.questions
    )
