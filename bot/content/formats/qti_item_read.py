"""What reading a QTI item needs whatever its interaction (qti_item.py reads the item and picks
the interaction; qti_choice.py and qti_number.py read one each): the reading context (`ItemRead`,
`Report`), element lookups, the item's XHTML pieces as our text (formatting dropped collected
once, pictures), its prompt and explanation with any feedback inside, and the draft question
they make. Apart so that both interaction readers use it without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from bot.content.formats.draft import (
    DraftOption,
    DraftPicture,
    DraftQuestion,
    Limits,
    ParseResult,
    clean_text,
)
from bot.content.formats.html_text import HtmlText, html_to_text
from bot.content.formats.qti_text import inner_html, local
from bot.content.formats.safe_xml import line_of
from bot.content.problems import N_, Msg
from bot.core.kinds import NumberAnswer

_FEEDBACK_INSIDE = ("feedbackInline", "feedbackBlock")

# (src, line) -> the picture's bytes, or None when it is not in the package (already reported).
PictureReader = Callable[[str, int], DraftPicture | None]


class Report:
    """Problems of one package member, worded `items/q3.xml:12: ...` (the line is the
    member's own, so an editor opens the right place)."""

    def __init__(self, result: ParseResult, file: str) -> None:
        self.result, self.file = result, file

    def _where(self, line: int, message: str) -> Msg:
        return Msg(N_("{file}:{line}: {problem}"), file=self.file, line=line, problem=message)

    def note(self, line: int, message: str) -> None:
        self.result.note(line, self._where(line, message))

    def skip(self, line: int, message: str) -> None:
        self.result.skip(line, self._where(line, message))


@dataclass(frozen=True, slots=True)
class ItemRead:
    """What reading one item needs beside the item: its id, where to report, the bounds."""

    qid: str
    report: Report
    limits: Limits
    pictures: PictureReader


def children(element: Element, name: str) -> list[Element]:
    return [child for child in element if local(child.tag) == name]


def first(element: Element, name: str) -> Element | None:
    found = children(element, name)
    return found[0] if found else None


def correct_values(declaration: Element) -> list[str]:
    correct = first(declaration, "correctResponse")
    if correct is None:
        return []
    return [(value.text or "").strip() for value in children(correct, "value")]


class ItemTexts:
    """Converts the item's XHTML pieces, collecting the dropped formatting once per item."""

    def __init__(self, read: ItemRead, line: int) -> None:
        self.read, self.line = read, line
        self.dropped: set[str] = set()

    def convert(self, html: str) -> HtmlText:
        converted = html_to_text(html)
        self.dropped.update(converted.dropped)
        return converted

    def clean(self, text: str) -> str:
        scratch = ParseResult()
        text = clean_text(text, self.line, scratch, self.read.limits)
        for problem in scratch.problems:
            self.read.report.note(self.line, problem.message)
        return text

    def picture(self, converted: HtmlText, line: int) -> DraftPicture | None:
        images = list(converted.images)
        for extra in images[1:]:
            self.read.report.note(
                line,
                Msg(N_("one picture per question and explanation: {src} left out"), src=extra.src),
            )
        if not images:
            return None
        found = self.read.pictures(images[0].src, line)
        if found is None:
            return None
        return DraftPicture(found.name, found.data, images[0].alt.strip())


def inside_feedback(
    element: Element, texts: ItemTexts, parts: list[str], outside: Element | None = None
) -> dict[int, str]:
    """feedbackInline/feedbackBlock under `element` (not under `outside`, read already): their
    text joins the explanation (noted) and they leave the text they sit in."""
    out: dict[int, str] = {}
    done = {id(el) for el in outside.iter()} if outside is not None else set()
    for found in element.iter():
        if local(found.tag) in _FEEDBACK_INSIDE and id(found) not in done:
            out[id(found)] = ""
            text = texts.convert(inner_html(found)).text
            if text:
                parts.append(text)
                texts.read.report.note(
                    line_of(found),
                    Msg(N_("{name} appended to the explanation (quizbot shows one explanation "
                           "after every answer)"), name=local(found.tag)),
                )  # fmt: skip
    return out


def read_explanation(
    root: Element, texts: ItemTexts, parts: list[str]
) -> tuple[str, DraftPicture | None]:
    modal = children(root, "modalFeedback")
    if len(modal) > 1:
        texts.read.report.note(
            line_of(modal[1]),
            Msg(N_("{n} modalFeedback blocks joined into one explanation (quizbot shows one "
                   "after every answer)"), n=len(modal)),
        )  # fmt: skip
    picture: DraftPicture | None = None
    own: list[str] = []
    for block in modal:
        converted = texts.convert(inner_html(block))
        if converted.text:
            own.append(converted.text)
        if picture is None and converted.images:
            picture = texts.picture(converted, line_of(block))
    return "\n".join([*own, *parts]), picture


def read_prompt(
    body: Element, hidden: dict[int, str], texts: ItemTexts
) -> tuple[str, DraftPicture | None]:
    converted = texts.convert(inner_html(body, hidden))
    return converted.text, texts.picture(converted, line_of(body))


def draft_question(
    read: ItemRead,
    texts: ItemTexts,
    root: Element,
    prompt: str,
    options: tuple[DraftOption, ...],
    explanation: str,
    kind: str,
    image: DraftPicture | None,
    shown: DraftPicture | None,
    key: NumberAnswer | None = None,
) -> DraftQuestion | None:
    line = line_of(root)
    if not prompt.strip():
        read.report.skip(line, Msg(N_("the question has no text")))
        return None
    return DraftQuestion(
        read.qid,
        texts.clean(prompt),
        options,
        texts.clean(explanation),
        line,
        kind,
        key,
        image=image,
        explanation_image=shown,
    )
