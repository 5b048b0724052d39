"""What reading any Moodle XML question needs: where its problems go (`question “Name”: ...`
at its line), its text fields and pictures, its answers with their fractions and feedback, and
the explanation they make (general feedback, the right answers' feedback, then each wrong
answer's, reported). The question types themselves: moodle_question.py, moodle_number.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from bot.content.formats.draft import (
    DraftOption,
    DraftPicture,
    DraftQuestion,
    Limits,
    ParseResult,
    clean_text,
    option_letter,
)
from bot.content.formats.moodle_text import (
    Converted,
    Fields,
    child,
    file_path,
    files_of,
    picture,
    plain,
)
from bot.content.formats.safe_xml import line_of
from bot.content.problems import N_, Msg
from bot.core.kinds import NumberAnswer

FLASHCARD_TAG = "quizbot-flashcard"  # how quizbot's export marks a flashcard's description
# What Moodle fills a question's combined feedback with when the teacher wrote nothing.
_STANDARD_FEEDBACK = {
    "Your answer is correct.",
    "Your answer is partially correct.",
    "Your answer is incorrect.",
}
_COMBINED = ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback")


class Report:
    """Problems of one question, worded `question “Name”: ...` at the question's line."""

    def __init__(self, result: ParseResult, name: str, line: int) -> None:
        self.result, self.name, self.line = result, name, line

    def _where(self, message: str) -> Msg:
        return Msg(N_("question “{name}”: {problem}"), name=self.name, problem=message)

    def note(self, message: str) -> None:
        self.result.note(self.line, self._where(message))

    def skip(self, message: str) -> None:
        self.result.skip(self.line, self._where(message))


@dataclass(slots=True)
class Read:
    """One question being read: its element, id, report, bounds and its fields' converter."""

    element: Element
    qid: str
    report: Report
    limits: Limits
    lang: str
    fields: Fields

    def clean(self, text: str) -> str:
        scratch = ParseResult()
        text = clean_text(text, self.report.line, scratch, self.limits)
        for problem in scratch.problems:
            self.report.note(problem.message)
        return text

    def shown(self, converted: Converted, element: Element | None) -> DraftPicture | None:
        """The field's first picture that the file holds (the others, and any that cannot be
        read, reported)."""
        kept: DraftPicture | None = None
        files = files_of(element)
        for image in converted.images:
            if kept is not None:
                self.report.note(Msg(N_("one picture per question and explanation: {src} left "
                                        "out"), src=image.src))  # fmt: skip
                continue
            found = picture(image, files)
            if isinstance(found, DraftPicture):
                kept = found
            else:
                self.report.note(found)
        shown = {file_path(image.src) for image in converted.images}
        for path in files:
            if path not in shown:  # sound, a document, a picture the text does not show
                self.report.note(Msg(N_("file {name} left out (quizbot keeps the pictures a "
                                        "text shows, not sound or documents)"),
                                     name=path.rsplit("/", 1)[-1][:200]))  # fmt: skip
        return kept


def common(read: Read) -> tuple[str, DraftPicture | None, str, DraftPicture | None] | None:
    """The prompt and its picture, the general feedback and its picture; None (reported) when
    the question has no text."""
    text_element = child(read.element, "questiontext")
    prompt = read.fields.read(text_element)
    if text_element is not None and text_element.get("format"):
        # Moodle's importer: the other fields default to the question text's format.
        read.fields.default_format = text_element.get("format") or "html"
    if not prompt.text.strip() and not prompt.images:
        read.report.skip(Msg(N_("the question has no text")))
        return None
    general_element = child(read.element, "generalfeedback")
    general = read.fields.read(general_element)
    for name in _COMBINED:
        said = plain(child(read.element, name))
        if said and said not in _STANDARD_FEEDBACK:
            read.report.note(Msg(N_("<{element}> not kept: quizbot says itself whether an "
                                    "answer is right"), element=name))  # fmt: skip
    if any(plain(hint) for hint in read.element.findall("hint")):
        read.report.note(Msg(N_("hints not kept: quizbot asks each question once")))
    return (
        read.clean(prompt.text),
        read.shown(prompt, text_element),
        general.text,
        read.shown(general, general_element),
    )


def fraction_of(answer: Element) -> float | None:
    try:
        value = float(answer.get("fraction", "0")) / 100
    except ValueError:
        return None
    return value if math.isfinite(value) else None


@dataclass(slots=True)
class Answer:
    text: str
    fraction: float
    feedback: str
    line: int
    has_picture: bool


def answers_of(read: Read, *, rich: bool) -> list[Answer] | None:
    found = []
    for answer in read.element.findall("answer"):
        fraction = fraction_of(answer)
        if fraction is None:
            read.report.skip(Msg(N_("answer weight {fraction} is not a number"),
                                 fraction=answer.get("fraction", "")))  # fmt: skip
            return None
        text = read.fields.read(answer) if rich else Converted(plain(answer))
        feedback = read.fields.read(child(answer, "feedback")).text
        found.append(Answer(text.text, fraction, feedback, line_of(answer), bool(text.images)))
    return found


def explanation(read: Read, general: str, answers: list[Answer], right: list[bool]) -> str:
    """General feedback, the right answers' feedback, then each wrong answer's (reported)."""
    parts = [general] if general else []
    for index, (answer, is_right) in enumerate(zip(answers, right, strict=True)):
        if not answer.feedback or answer.feedback in parts:
            continue
        if not is_right:
            read.report.note(Msg(N_("feedback on wrong answer {letter} appended to the "
                                    "explanation (quizbot shows one explanation per question)"),
                                 letter=option_letter(index)))  # fmt: skip
            parts.append(f"“{answer.text}”: {answer.feedback}")
        else:
            parts.append(answer.feedback)
    return read.clean("\n".join(parts))


def draft(
    read: Read,
    prompt: str,
    options: tuple[DraftOption, ...],
    explanation: str,
    kind: str,
    image: DraftPicture | None,
    shown: DraftPicture | None,
    key: NumberAnswer | None = None,
) -> DraftQuestion:
    tags = tuple(
        t for t in (plain(tag) for tag in read.element.findall("tags/tag")) if t != FLASHCARD_TAG
    )
    return DraftQuestion(
        read.qid, prompt, options, explanation, read.report.line, kind, key,
        image=image, explanation_image=shown, tags=tuple(t for t in tags if t),
    )  # fmt: skip
