"""A QTI textEntryInteraction whose response is a float or an integer -> a `number` draft question.

The tolerance comes from responseProcessing: `equal` (exact, absolute, or relative turned into
an absolute one, reported), or a `gte`/`lte` pair for a range; text right after the entry box,
alone in its paragraph, is the unit; an entry box inside a sentence is shown as _____.
"""

from __future__ import annotations

import math
from dataclasses import replace
from xml.etree.ElementTree import Element

from bot.content.formats.draft import NUMBER, DraftQuestion
from bot.content.formats.qti_item_read import (
    ItemRead,
    ItemTexts,
    Report,
    correct_values,
    draft_question,
    first,
    inside_feedback,
    read_explanation,
    read_prompt,
)
from bot.content.formats.qti_text import local
from bot.content.formats.safe_xml import line_of
from bot.content.problems import N_, Msg
from bot.core.kinds import NumberAnswer

_NUMERIC = ("float", "integer")


def read_number(
    root: Element,
    body: Element,
    interaction: Element,
    declaration: Element,
    read: ItemRead,
    texts: ItemTexts,
) -> DraftQuestion | None:
    report, at = read.report, line_of(interaction)
    base = declaration.get("baseType", "")
    if base not in _NUMERIC:
        report.skip(
            at,
            Msg(N_("a text-entry answer of type {type}: quizbot reads numbers only (kind number)"),
                type=base or "?"),
        )  # fmt: skip
        return None
    key = _number_key(root, declaration, report, at)
    if key is None:
        return None
    parents = {id(child): parent for parent in body.iter() for child in parent}
    parent = parents.get(id(interaction))
    unit = ""
    hidden: dict[int, str] = {}
    alone = parent is not None and len(parent) == 1 and not (parent.text or "").strip()
    if (
        parent is not None
        and parent is not body
        and alone
        and len((interaction.tail or "").strip()) <= 24
    ):
        unit = (interaction.tail or "").strip()
        hidden[id(parent)] = ""
    else:
        hidden[id(interaction)] = " _____ "
        report.note(at, Msg(N_("the entry box inside the text is shown as _____")))
    parts: list[str] = []
    hidden.update(inside_feedback(body, texts, parts))
    prompt, image = read_prompt(body, hidden, texts)
    explanation, shown = read_explanation(root, texts, parts)
    question = draft_question(read, texts, root, prompt, (), explanation, NUMBER, image, shown, key)
    if question is None:
        return None
    return replace(question, unit=texts.clean(unit)) if unit else question


def _number_key(
    root: Element, declaration: Element, report: Report, at: int
) -> NumberAnswer | None:
    values = correct_values(declaration)
    processing = first(root, "responseProcessing")
    try:
        ranged = _range(processing)
        if ranged is not None:
            return NumberAnswer(low=ranged[0], high=ranged[1])
        if not values:
            report.skip(at, Msg(N_("no right value: the response has no correctResponse")))
            return None
        value = float(values[0])
        if not math.isfinite(value):
            raise ValueError(values[0])
        low, high = _tolerance(processing, value, report, at)
        if low == high:
            return NumberAnswer(value=value, tolerance=low)
        return NumberAnswer(low=value - low, high=value + high)
    except ValueError:
        report.skip(
            at, Msg(N_("the right value is not a number: {value}"), value=", ".join(values))
        )
        return None


def _tolerance(
    processing: Element | None, value: float, report: Report, at: int
) -> tuple[float, float]:
    """(below, above) the value that `equal` accepts; (0, 0) when exact or not said."""
    equal = (
        next((el for el in processing.iter() if local(el.tag) == "equal"), None)
        if processing is not None
        else None
    )
    if equal is None or equal.get("toleranceMode", "exact") == "exact":
        return 0.0, 0.0
    bounds = [abs(float(t)) for t in equal.get("tolerance", "0").split()] or [0.0]
    below, above = bounds[0], bounds[-1]
    if not (math.isfinite(below) and math.isfinite(above)):
        raise ValueError(equal.get("tolerance"))
    if equal.get("toleranceMode") == "relative":
        below, above = abs(value) * below / 100, abs(value) * above / 100
        report.note(
            at,
            Msg(
                N_("relative tolerance turned into -{below} / +{above}"),
                below=f"{below:g}",
                above=f"{above:g}",
            ),
        )
    return below, above


def _range(processing: Element | None) -> tuple[float, float] | None:
    """A `gte`/`gt` and a `lte`/`lt` of the response against base values: [low, high]."""
    if processing is None:
        return None
    low = high = None
    for element in processing.iter():
        name = local(element.tag)
        if name not in ("gte", "gt", "lte", "lt") or len(element) != 2:
            continue
        left, right = element[0], element[1]
        if local(left.tag) != "variable" or local(right.tag) != "baseValue":
            continue
        bound = float((right.text or "").strip())
        if not math.isfinite(bound):
            raise ValueError(right.text)
        if name.startswith("g"):
            low = bound
        else:
            high = bound
    return (low, high) if low is not None and high is not None else None
