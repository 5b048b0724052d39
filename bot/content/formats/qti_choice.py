"""A QTI choiceInteraction -> a `single`, `multiple` or `true_false` draft question.

- cardinality single: `single`, or `true_false` when its two choices are True and False (by
  identifier or by text, in English or French; True is put first); cardinality multiple:
  `multiple`;
- the key from correctResponse (else the mapping's positive entries); for `multiple`, a mapping
  other than quizbot's own rule (+w for each right choice, -w for each wrong one, floored at 0)
  is reported, since quizbot's partial credit applies.
"""

from __future__ import annotations

import math
from xml.etree.ElementTree import Element

from bot.content.formats.draft import MULTIPLE, SINGLE, TRUE_FALSE, DraftOption, DraftQuestion
from bot.content.formats.qti_item_read import (
    ItemRead,
    ItemTexts,
    Report,
    children,
    correct_values,
    draft_question,
    first,
    inside_feedback,
    read_explanation,
    read_prompt,
)
from bot.content.formats.qti_text import inner_html
from bot.content.formats.safe_xml import line_of
from bot.content.problems import N_, Msg
from bot.core.kinds import MULTIPLE_MAX_OPTIONS, TRUE_FALSE_IDS

_TRUE_FALSE_WORDS = {("true", "false"), ("vrai", "faux")}


def read_choice(
    root: Element,
    body: Element,
    interaction: Element,
    declaration: Element,
    read: ItemRead,
    texts: ItemTexts,
) -> DraftQuestion | None:
    report, at = read.report, line_of(interaction)
    several = declaration.get("cardinality") == "multiple"
    choices = children(interaction, "simpleChoice")
    most = (
        min(read.limits.max_options, MULTIPLE_MAX_OPTIONS) if several else read.limits.max_options
    )
    if not 2 <= len(choices) <= most:
        what = Msg(N_("a several-answer question")) if several else Msg(N_("a question"))
        report.skip(
            at,
            Msg(N_("{count} answers: {what} needs 2 to {most}"), count=len(choices), what=what,
                most=most),
        )  # fmt: skip
        return None
    ids = [choice.get("identifier", "") for choice in choices]
    right = set(correct_values(declaration)) or _mapped_right(declaration)
    if not right & set(ids):
        report.skip(at, Msg(N_("no right choice: correctResponse names none of the choices")))
        return None
    if several and set(ids) <= right:
        report.skip(
            at, Msg(N_("every choice is right: a select-all question needs a wrong one too"))
        )
        return None
    if several:
        _check_weights(declaration, ids, right, report, at)
    parts: list[str] = []
    options: list[DraftOption] = []
    for choice, choice_id in zip(choices, ids, strict=True):
        hidden = inside_feedback(choice, texts, parts)
        converted = texts.convert(inner_html(choice, hidden))
        if converted.images:
            report.note(line_of(choice), Msg(N_("a picture inside a choice is not kept")))
        if not converted.text:
            report.skip(line_of(choice), Msg(N_("an answer is empty")))
            return None
        options.append(
            DraftOption(texts.clean(converted.text), choice_id in right, line_of(choice))
        )
    if not several and sum(option.correct for option in options) > 1:
        report.skip(at, Msg(N_("several right choices in a single-answer item")))
        return None
    hidden = inside_feedback(body, texts, parts, outside=interaction)
    prompt_element = first(interaction, "prompt")
    hidden[id(interaction)] = (
        f"<div>{inner_html(prompt_element)}</div>" if prompt_element is not None else ""
    )
    prompt, image = read_prompt(body, hidden, texts)
    explanation, shown = read_explanation(root, texts, parts)
    kind = MULTIPLE if several else SINGLE
    if not several and _true_false(ids, options):
        kind = TRUE_FALSE
        # True first, then False, as quizbot shows them; each keeps the file's own text.
        pairs = sorted(
            zip(options, ids, strict=True), key=lambda pair: _word(pair[0].text, pair[1])
        )
        options = [option for option, _ in pairs]
    return draft_question(
        read, texts, root, prompt, tuple(options), explanation, kind, image, shown
    )


def _word(text: str, choice_id: str) -> int:
    """0 for a True choice, 1 for a False one, -1 for neither (by identifier, then by text)."""
    for words in (TRUE_FALSE_IDS, *_TRUE_FALSE_WORDS):
        for index, word in enumerate(words):
            if choice_id.casefold() == word or text.strip().casefold() == word:
                return index
    return -1


def _true_false(ids: list[str], options: list[DraftOption]) -> bool:
    return len(options) == 2 and sorted(
        _word(o.text, i) for o, i in zip(options, ids, strict=True)
    ) == [0, 1]


def _mapped_right(declaration: Element) -> set[str]:
    mapping = first(declaration, "mapping")
    if mapping is None:
        return set()
    return {
        entry.get("mapKey", "")
        for entry in children(mapping, "mapEntry")
        if _float(entry.get("mappedValue")) > 0
    }


def _float(text: str | None, default: float = 0.0) -> float:
    try:
        value = float(text) if text is not None else default
    except ValueError:
        return default
    return value if math.isfinite(value) else default


def _check_weights(
    declaration: Element, ids: list[str], right: set[str], report: Report, at: int
) -> None:
    """A mapping other than quizbot's rule (+w right, -w wrong, floored at 0) is reported."""
    mapping = first(declaration, "mapping")
    if mapping is None:
        report.note(at, Msg(N_("no mapping: quizbot's partial credit applies")))
        return
    default = _float(mapping.get("defaultValue"))
    weights = {
        entry.get("mapKey", ""): _float(entry.get("mappedValue"))
        for entry in children(mapping, "mapEntry")
    }
    values = [weights.get(choice_id, default) for choice_id in ids]
    share = next((v for v, i in zip(values, ids, strict=True) if i in right), 0.0)
    ours = (
        share > 0
        and mapping.get("lowerBound") is not None
        and _float(mapping.get("lowerBound")) == 0
    )
    for value, choice_id in zip(values, ids, strict=True):
        wanted = share if choice_id in right else -share
        ours = ours and math.isclose(value, wanted, rel_tol=1e-6)
    if not ours:
        report.note(
            at,
            Msg(N_("partial-credit weights not kept: quizbot scores (right choices selected - "
                   "wrong ones selected) / right choices, floored at 0")),
        )  # fmt: skip
