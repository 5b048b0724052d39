"""`quizbot content export`: a checked quiz of the catalogue -> drafts -> a format's file
(GIFT, CSV, Aiken as text; Moodle XML, QTI, Anki as bytes). The drafts carry units and each
picture's bytes (read from content/media/) for the formats that embed them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from bot.content.formats import (
    BINARY_WRITERS,
    DraftOption,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
    write_bytes,
)
from bot.content.formats.draft import FLASHCARD, MULTIPLE, NUMBER
from bot.core.models import SOURCE_LANGUAGE, Image, Quiz, Text


@dataclass(frozen=True, slots=True)
class Exported:
    data: bytes  # the file (text formats as UTF-8)
    fallbacks: dict[str, int]  # language -> strings shown in English because untranslated
    dropped: int  # explanations the format cannot carry (Aiken)
    skipped: int = 0  # number and select-all questions Aiken and CSV cannot carry (not rows)
    # ids of the flashcards the format has no question for (GIFT, Aiken, QTI leave them out;
    # Moodle XML writes each as a description)
    flashcards: tuple[str, ...] = ()
    units: int = 0  # units GIFT cannot carry (a number question's unit is left out)

    @property
    def text(self) -> str:
        """A text format's file (GIFT, CSV, Aiken)."""
        return self.data.decode("utf-8")


def binary_format(fmt: str) -> bool:
    """Formats whose files are bytes: `--out` is required for them."""
    return fmt in BINARY_WRITERS


def languages(quiz: Quiz) -> list[str]:
    """Every language that has at least one string in the quiz, English first."""
    found: set[str] = set(quiz.title.values)
    for question in quiz.questions:
        found.update(question.prompt.values)
    return sorted(found, key=lambda lang: (lang != SOURCE_LANGUAGE, lang))


def draft(quiz: Quiz, lang: str) -> tuple[DraftQuiz, int]:
    """The quiz in `lang` (English where a string is missing), and how many strings fell back."""
    missing = 0

    def text(value: Text) -> str:
        nonlocal missing
        if not value.has(lang):
            missing += 1
        return value.get(lang)

    questions = tuple(
        DraftQuestion(
            question.id,
            text(question.prompt),
            tuple(
                DraftOption(text(option.text), i in question.key)
                for i, option in enumerate(question.options)
            ),
            text(question.explanation),
            kind=question.kind.value,
            number=question.number,
            unit=question.unit.get(lang) if question.unit.values else "",
            image=_picture(question.image, lang),
            explanation_image=_picture(question.explanation_image, lang),
        )
        for question in quiz.questions
    )
    title = text(quiz.title)
    return DraftQuiz(quiz.id, title, lang, questions, text(quiz.description)), missing


def _picture(image: Image | None, lang: str) -> DraftPicture | None:
    """The picture shown in `lang`, with its bytes (the catalogue checked the file at load)."""
    if image is None:
        return None
    media = image.file(lang)
    return DraftPicture(media.name, Path(media.path).read_bytes(), image.alt.get(lang))


def export(quiz: Quiz, fmt: str, langs: list[str]) -> Exported:
    drafts, fallbacks = [], {}
    for lang in langs:
        quiz_draft, missing = draft(quiz, lang)
        drafts.append(quiz_draft)
        if missing:
            fallbacks[lang] = missing
    skipped = units = 0
    flashcards: tuple[str, ...] = ()
    if fmt in ("aiken", "gift", "qti", "moodle"):  # no question without an answer key
        flashcards = tuple(q.id for q in quiz.questions if q.flashcard)
    if fmt in ("aiken", "gift"):  # (QTI's writer leaves them out, Moodle's writes descriptions)
        drafts = [
            replace(d, questions=tuple(q for q in d.questions if q.kind != FLASHCARD))
            for d in drafts
        ]
    if fmt in ("aiken", "csv"):  # one right option per question: no number, no select-all
        left_out = (NUMBER, MULTIPLE)
        skipped = sum(1 for q in quiz.questions if q.kind.value in left_out)
        drafts = [
            replace(d, questions=tuple(q for q in d.questions if q.kind not in left_out))
            for d in drafts
        ]
    elif fmt == "gift":
        units = sum(1 for q in quiz.questions if q.unit.values)
    dropped = 0
    if fmt == "aiken":
        dropped = sum(1 for d in drafts for q in d.questions if q.explanation)
    return Exported(
        write_bytes(fmt, drafts), fallbacks, dropped, skipped, units=units, flashcards=flashcards
    )
