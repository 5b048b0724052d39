"""Quiz drafts -> Moodle XML, as Moodle's own importer reads it (question/format/xml in
Moodle's code; the MoodleDocs page https://docs.moodle.org/en/Moodle_XML_format).

- each quiz: a category question `$course$/<title>` (a / in the title written //, as Moodle
  reads it), its description as the category's `<info>`; then its questions, `<name>` the
  question's id;
- single: `multichoice`, `<single>true</single>`, the right answer at fraction 100;
- multiple: `multichoice`, `<single>false</single>`, +100/k for each of the k right answers and
  -100/k for each wrong one: Moodle adds the chosen answers' fractions and floors the sum at 0,
  which is quizbot's partial credit exactly (bot/core/kinds.py). 100/k is one of Moodle's grade
  options for every k a select-all question can have (1 to 7), written as Moodle writes it
  (33.33333), so its "grade must be one of the list" check passes;
- true_false: `truefalse` with the answers `true` and `false` (Moodle shows its own labels);
- number: `numerical`, value and `<tolerance>` (a range low..high as its middle ± half its
  width, the same numbers accepted); the unit as the unit of multiplier 1;
- flashcard: Moodle has no flashcard: a `description` (its text the front, its general feedback
  the back, shown when the teacher's review options show general feedback), tagged
  `quizbot-flashcard` so that quizbot reads it back as a flashcard;
- the explanation is the general feedback (Moodle shows it after every answer, as quizbot does);
  pictures are embedded as `@@PLUGINFILE@@` files (base64) with their alt text;
- tags as `<tags>`.

Deterministic: the same drafts give the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree.ElementTree import Comment, Element, SubElement, indent, tostring

from bot.content.formats.draft import (
    FLASHCARD,
    MULTIPLE,
    NUMBER,
    TRUE_FALSE,
    DraftQuestion,
    DraftQuiz,
)
from bot.content.formats.moodle_read import FLASHCARD_TAG
from bot.content.formats.moodle_text import html, write_field
from bot.core.kinds import NumberAnswer


def write(quizzes: Sequence[DraftQuiz]) -> bytes:
    """The file's bytes (UTF-8, as its declaration says)."""
    root = Element("quiz")
    for quiz in quizzes:
        said = f" quizbot quiz {quiz.id} ({quiz.lang}) ".replace("--", "- -")  # XML forbids --
        root.append(Comment(said))
        category = SubElement(root, "question", {"type": "category"})
        path = SubElement(category, "category")
        SubElement(path, "text").text = "$course$/" + quiz.title.replace("/", "//")
        write_field(category, "info", quiz.description)
        for question in quiz.questions:
            _question(root, question)
    indent(root, "  ")
    body = tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n").encode("utf-8")


def _moodle_type(question: DraftQuestion) -> str:
    return {
        TRUE_FALSE: "truefalse",
        NUMBER: "numerical",
        FLASHCARD: "description",
    }.get(question.kind, "multichoice")


def _question(root: Element, question: DraftQuestion) -> None:
    element = SubElement(root, "question", {"type": _moodle_type(question)})
    SubElement(SubElement(element, "name"), "text").text = question.id
    write_field(element, "questiontext", question.prompt, question.image)
    write_field(element, "generalfeedback", question.explanation, question.explanation_image)
    flashcard = question.kind == FLASHCARD
    SubElement(element, "defaultgrade").text = "0" if flashcard else "1"
    SubElement(element, "penalty").text = "0" if flashcard else "0.3333333"
    SubElement(element, "hidden").text = "0"
    if question.kind == TRUE_FALSE:
        true_right = bool(question.options) and question.options[0].correct
        _answer(element, "true", "100" if true_right else "0")
        _answer(element, "false", "0" if true_right else "100")
    elif question.kind == NUMBER:
        _number(element, question)
    elif not flashcard:
        _choices(element, question)
    tags = [*question.tags, *([FLASHCARD_TAG] if flashcard else [])]
    if tags:
        listed = SubElement(element, "tags")
        for tag in tags:
            SubElement(SubElement(listed, "tag"), "text").text = tag


def _answer(parent: Element, text: str, fraction: str, *, rich: bool = False) -> Element:
    """An `<answer>`: HTML for a choice (Moodle reads a multichoice answer's format), plain
    text for true/false and numbers (Moodle reads those as plain text whatever it says)."""
    fmt = "html" if rich else "plain_text"
    answer = SubElement(parent, "answer", {"fraction": fraction, "format": fmt})
    SubElement(answer, "text").text = html(text, block=False) if rich else text
    SubElement(SubElement(answer, "feedback", {"format": "html"}), "text").text = ""
    return answer


def _weight(share: float) -> str:
    """A fraction as Moodle writes its grade options: 100, 50, 33.33333, -14.28571."""
    return f"{share:.5f}".rstrip("0").rstrip(".")


def _choices(element: Element, question: DraftQuestion) -> None:
    several = question.kind == MULTIPLE
    SubElement(element, "single").text = "false" if several else "true"
    SubElement(element, "shuffleanswers").text = "true"
    SubElement(element, "answernumbering").text = "abc"
    SubElement(element, "showstandardinstruction").text = "0"
    for name in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        write_field(element, name, "")
    share = 100 / max(1, len(question.answers))
    for option in question.options:
        if several:
            fraction = _weight(share if option.correct else -share)
        else:
            fraction = "100" if option.correct else "0"
        _answer(element, option.text, fraction, rich=True)


def _num(value: float) -> str:
    return format(value, ".15g")


def _number(element: Element, question: DraftQuestion) -> None:
    key = question.number or NumberAnswer(value=0.0)
    if key.value is not None:
        value, tolerance = key.value, key.tolerance
    else:
        low, high = key.low or 0.0, key.high or 0.0
        value, tolerance = (low + high) / 2, (high - low) / 2
    answer = _answer(element, _num(value), "100")
    answer.insert(1, Element("tolerance"))
    answer[1].text = _num(tolerance)
    unit = question.unit or key.unit
    if unit:
        units = SubElement(SubElement(element, "units"), "unit")
        SubElement(units, "multiplier").text = "1"
        SubElement(units, "unit_name").text = unit
    SubElement(element, "unitgradingtype").text = "0"
    SubElement(element, "unitpenalty").text = "0.1000000"
    # 0: the learner may type the unit (it is optional, as in quizbot); 3: no unit at all.
    SubElement(element, "showunits").text = "0" if unit else "3"
    SubElement(element, "unitsleft").text = "0"
