"""One quiz draft question -> a QTI 2.1 assessmentItem: its body, response and outcome
declarations, response processing, explanation, and the pictures it uses (`Pictures`, named as
package files). Apart from the package (qti_writer.py: manifest, tests, zip), which places items
but never looks inside them.

Each item's responseProcessing is written out rather than named by a template, because the
standard templates never set FEEDBACK, and our explanation is shown after every answer, right or
wrong: every item sets FEEDBACK to EXPLANATION, which shows its one modalFeedback.

- single / true_false: choiceInteraction maxChoices=1, SCORE 1 when the response matches
  correctResponse (the match_correct rule).
- multiple: maxChoices=0, a mapping of +1/k for each of the k right options and -1/k for each
  wrong one, bounded to [0, 1], SCORE = mapResponse (the map_response rule): exactly quizbot's
  partial credit, (right selected - wrong selected) / k floored at 0, so an LMS scores it as the
  bot does; match_correct would give nothing for a nearly right answer.
- number: textEntryInteraction with baseType float; `equal` with toleranceMode absolute for
  value ± tolerance (exact without one), `gte`/`lte` for a range (its middle as correctResponse):
  the tolerance in responseProcessing, because a float mapping has no tolerance at all. The unit
  follows the entry box as text.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element, SubElement

from bot.content.formats.draft import MULTIPLE, NUMBER, TRUE_FALSE, DraftPicture, DraftQuestion
from bot.content.formats.qti_names import EXPLANATION, FEEDBACK, QTI_NS, QTI_XSD, RESPONSE, SCORE
from bot.content.formats.qti_text import q, rich
from bot.core.kinds import TRUE_FALSE_IDS, NumberAnswer

_UNSAFE = re.compile(r"[^a-z0-9_-]+")


class Pictures:
    """A quiz's pictures as package files: safe, unique names; the same bytes written once."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.files: dict[str, bytes] = {}

    def add(self, picture: DraftPicture) -> str:
        """The picture's path from an item's file (items/ is one level down)."""
        for path, data in self.files.items():
            if data == picture.data:
                return path
        base = picture.name.replace("\\", "/").rsplit("/", 1)[-1]
        stem, _, _ = base.rpartition(".")
        stem = _UNSAFE.sub("-", (stem or base).casefold()).strip("-") or "picture"
        extension = "png" if picture.data.startswith(b"\x89PNG") else "jpg"
        name, n = f"{stem}.{extension}", 2
        while f"{self.folder}/media/{name}" in self.files:
            name, n = f"{stem}-{n}.{extension}", n + 1
        path = f"{self.folder}/media/{name}"
        self.files[path] = picture.data
        return path


def _image(parent: Element, picture: DraftPicture, pictures: Pictures, used: list[str]) -> None:
    path = pictures.add(picture)
    used.append(path)
    src = "../" + path.split("/", 1)[1]  # from <quiz>/items/ to <quiz>/media/
    SubElement(SubElement(parent, q("p")), q("img"), {"src": src, "alt": picture.alt})


def write_item(
    question: DraftQuestion, item_id: str, lang: str, pictures: Pictures
) -> tuple[Element, list[str]]:
    """The assessmentItem, and the package files it uses (its pictures)."""
    item = Element(
        q("assessmentItem"),
        {
            "identifier": item_id,
            "title": question.id,
            "adaptive": "false",
            "timeDependent": "false",
            "xml:lang": lang,
            "xsi:schemaLocation": f"{QTI_NS} {QTI_XSD}",
        },
    )
    used: list[str] = []
    feedback = bool(question.explanation or question.explanation_image)
    _declarations(item, question, feedback)
    body = SubElement(item, q("itemBody"))
    rich(body, question.prompt)
    if question.image is not None:
        _image(body, question.image, pictures, used)
    if question.kind == NUMBER:
        entry = SubElement(body, q("p"))
        SubElement(
            entry,
            q("textEntryInteraction"),
            {"responseIdentifier": RESPONSE, "expectedLength": "12"},
        )
        unit = question.unit or (question.number.unit if question.number else "")
        if unit:
            entry[-1].tail = f" {unit}"
    else:
        _choices(body, question)
    _processing(item, question, feedback)
    if feedback:
        modal = SubElement(
            item,
            q("modalFeedback"),
            {"outcomeIdentifier": FEEDBACK, "identifier": EXPLANATION, "showHide": "show"},
        )
        if question.explanation:
            rich(modal, question.explanation)
        if question.explanation_image is not None:
            _image(modal, question.explanation_image, pictures, used)
    return item, used


def _choice_ids(question: DraftQuestion) -> list[str]:
    if question.kind == TRUE_FALSE and len(question.options) == 2:
        return list(TRUE_FALSE_IDS)
    return [chr(ord("a") + i) if i < 26 else f"o{i + 1}" for i in range(len(question.options))]


def _num(value: float) -> str:
    """Every digit a float has (repr), without a trailing .0 for whole numbers."""
    text = repr(float(value))
    return text.removesuffix(".0")


def _value(parent: Element, text: str) -> None:
    SubElement(parent, q("value")).text = text


def _declarations(item: Element, question: DraftQuestion, feedback: bool) -> None:
    if question.kind == NUMBER:
        response = SubElement(
            item,
            q("responseDeclaration"),
            {"identifier": RESPONSE, "cardinality": "single", "baseType": "float"},
        )
        key = question.number or NumberAnswer(value=0.0)
        middle = key.value if key.value is not None else ((key.low or 0.0) + (key.high or 0.0)) / 2
        _value(SubElement(response, q("correctResponse")), _num(middle))
    else:
        several = question.kind == MULTIPLE
        response = SubElement(
            item,
            q("responseDeclaration"),
            {
                "identifier": RESPONSE,
                "cardinality": "multiple" if several else "single",
                "baseType": "identifier",
            },
        )
        ids = _choice_ids(question)
        correct = SubElement(response, q("correctResponse"))
        for index in sorted(question.answers):
            _value(correct, ids[index])
        if several:
            share = 1 / max(1, len(question.answers))
            mapping = SubElement(
                response, q("mapping"), {"lowerBound": "0", "upperBound": "1", "defaultValue": "0"}
            )
            for index, option in enumerate(question.options):
                SubElement(
                    mapping,
                    q("mapEntry"),
                    {
                        "mapKey": ids[index],
                        "mappedValue": _num(share if option.correct else -share),
                    },
                )
    score = SubElement(
        item,
        q("outcomeDeclaration"),
        {"identifier": SCORE, "cardinality": "single", "baseType": "float"},
    )
    _value(SubElement(score, q("defaultValue")), "0")
    if feedback:
        SubElement(
            item,
            q("outcomeDeclaration"),
            {"identifier": FEEDBACK, "cardinality": "single", "baseType": "identifier"},
        )


def _choices(body: Element, question: DraftQuestion) -> None:
    interaction = SubElement(
        body,
        q("choiceInteraction"),
        {
            "responseIdentifier": RESPONSE,
            "shuffle": "false",
            "maxChoices": "0" if question.kind == MULTIPLE else "1",
        },
    )
    for choice_id, option in zip(_choice_ids(question), question.options, strict=True):
        choice = SubElement(interaction, q("simpleChoice"), {"identifier": choice_id})
        rich(choice, option.text, block=False)


def _set(parent: Element, outcome: str, base_type: str, value: str) -> None:
    setter = SubElement(parent, q("setOutcomeValue"), {"identifier": outcome})
    SubElement(setter, q("baseValue"), {"baseType": base_type}).text = value


def _variable(parent: Element) -> None:
    SubElement(parent, q("variable"), {"identifier": RESPONSE})


def _processing(item: Element, question: DraftQuestion, feedback: bool) -> None:
    processing = SubElement(item, q("responseProcessing"))
    if question.kind == MULTIPLE:
        setter = SubElement(processing, q("setOutcomeValue"), {"identifier": SCORE})
        SubElement(setter, q("mapResponse"), {"identifier": RESPONSE})
    else:
        condition = SubElement(processing, q("responseCondition"))
        when = SubElement(condition, q("responseIf"))
        _right_test(when, question)
        _set(when, SCORE, "float", "1")
        _set(SubElement(condition, q("responseElse")), SCORE, "float", "0")
    if feedback:
        _set(processing, FEEDBACK, "identifier", EXPLANATION)


def _right_test(parent: Element, question: DraftQuestion) -> None:
    key = question.number
    if question.kind != NUMBER or key is None:
        match = SubElement(parent, q("match"))
        _variable(match)
        SubElement(match, q("correct"), {"identifier": RESPONSE})
    elif key.value is not None:
        mode = {"toleranceMode": "exact"}
        if key.tolerance:
            mode = {"toleranceMode": "absolute", "tolerance": _num(key.tolerance)}
        equal = SubElement(parent, q("equal"), mode)
        _variable(equal)
        SubElement(equal, q("correct"), {"identifier": RESPONSE})
    else:
        both = SubElement(parent, q("and"))
        for operator, bound in (("gte", key.low), ("lte", key.high)):
            compare = SubElement(both, q(operator))
            _variable(compare)
            SubElement(compare, q("baseValue"), {"baseType": "float"}).text = _num(bound or 0.0)
