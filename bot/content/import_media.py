"""Pictures a quiz file carries inside it (Moodle's base64 files, a QTI package's or an Anki
deck's media) -> files under content/media/ beside the imported quiz.

Each picture is held to the checker's rules before it is written (PNG or JPEG by its first
bytes, at most 1 MB, Telegram's photo dimensions, on a kind that shows pictures): one that fails
is left out of its question with a note at the question's line, the question kept, so a file
with one odd picture still imports. The name is `<quiz-id>-<the file's own name, made safe>`
with the extension its bytes call for; two different pictures that would share a name get
`-2`, `-3`...; a picture already in content/media/ with the same bytes is reused, not written.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from bot.content.formats.draft import DraftPicture, DraftQuestion, DraftQuiz, FormatProblem
from bot.content.media import (
    MAX_IMAGE_BYTES,
    MEDIA_DIR,
    PICTURED_KINDS,
    ImageFacts,
    image_facts,
    size_problem,
)
from bot.content.problems import N_, Msg

_UNSAFE = re.compile(r"[^a-z0-9_-]+")
_EXTENSION = {"png": "png", "jpeg": "jpg"}
MAX_STEM = 40


def safe_stem(name: str) -> str:
    """`Diagrams/Step Chain (v2).PNG` -> `step-chain-v2`: the schema's file-name characters."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return _UNSAFE.sub("-", base.casefold()).strip("-")[:MAX_STEM].strip("-") or "picture"


class MediaPlan:
    """The pictures of one import: media-relative name -> bytes, and what was left out."""

    def __init__(self, content: Path) -> None:
        self.folder = content / MEDIA_DIR
        self.files: dict[Path, bytes] = {}
        self.problems: list[FormatProblem] = []

    def place_quiz(self, quiz: DraftQuiz) -> DraftQuiz:
        """`quiz` with each picture renamed to its file under media/ (or left out, noted)."""
        questions = tuple(self._place_question(quiz.id, q) for q in quiz.questions)
        return replace(quiz, questions=questions)

    def _place_question(self, quiz_id: str, question: DraftQuestion) -> DraftQuestion:
        image = self.place(quiz_id, question, question.image)
        shown = self.place(quiz_id, question, question.explanation_image)
        return replace(question, image=image, explanation_image=shown)

    def place(
        self, quiz_id: str, question: DraftQuestion, picture: DraftPicture | None
    ) -> DraftPicture | None:
        """`picture` of `question` under its media/ name, or None (noted at the question's line)
        when it breaks a rule; also for a translation's own picture (`translation_pictures`)."""
        if picture is None:
            return None
        why = self._refusal(question, picture)
        if why is not None:
            self.problems.append(
                FormatProblem(
                    question.line,
                    Msg(N_("{id}: picture {name} left out: {why}"), id=question.id,
                        name=picture.name, why=why),
                )
            )  # fmt: skip
            return None
        facts = image_facts(picture.data)
        assert isinstance(facts, ImageFacts)
        stem = f"{quiz_id}-{safe_stem(picture.name)}"[: MAX_STEM + 33]
        ext = _EXTENSION[facts.format]
        name, n = f"{stem}.{ext}", 2
        while not self._free(name, picture.data):
            name, n = f"{stem}-{n}.{ext}", n + 1
        path = self.folder / name
        if not (path.is_file() and path.read_bytes() == picture.data):
            self.files[path] = picture.data
        return DraftPicture(name, picture.data, picture.alt)

    def _free(self, name: str, data: bytes) -> bool:
        """Whether `name` may hold `data`: unused in this import, or holding these bytes."""
        planned = self.files.get(self.folder / name)
        return planned is None or planned == data

    @staticmethod
    def _refusal(question: DraftQuestion, picture: DraftPicture) -> str | None:
        if question.kind not in PICTURED_KINDS:
            return Msg(
                N_("pictures go with single-choice, true/false and flashcard questions only")
            )
        if len(picture.data) > MAX_IMAGE_BYTES:
            return Msg(
                N_("{size} bytes; at most {most}"), size=len(picture.data), most=MAX_IMAGE_BYTES
            )
        facts = image_facts(picture.data)
        if not isinstance(facts, ImageFacts):
            return facts
        return size_problem(facts)


def drop_pictures(quiz: DraftQuiz, why: str) -> tuple[DraftQuiz, list[FormatProblem]]:
    """`quiz` without pictures, one note per question that had one (`why` says why)."""
    problems = []
    questions = []
    for question in quiz.questions:
        if question.image is not None or question.explanation_image is not None:
            problems.append(FormatProblem(question.line, why))
            question = replace(question, image=None, explanation_image=None)
        questions.append(question)
    return replace(quiz, questions=tuple(questions)), problems
