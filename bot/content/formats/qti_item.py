"""One QTI 2.1 assessmentItem -> a draft question, or a reason (with its line) it is left out.

The subset quizbot reads is the one it writes (bot/content/formats/qti_writer.py), read the way
other tools write it too:

- one interaction per item: a choiceInteraction (cardinality single: `single`, or `true_false`
  when its two choices are True and False; cardinality multiple: `multiple`), or a
  textEntryInteraction whose response is a float or an integer (`number`). Any other
  interaction, several in one item, or none, leaves the item out with its line;
- the key from correctResponse (else the mapping's positive entries); for `multiple`, a mapping
  other than quizbot's own rule (+w for each right choice, -w for each wrong one, floored at 0)
  is reported, since quizbot's partial credit applies;
- a number's tolerance from responseProcessing: `equal` (exact, absolute, or relative turned
  into an absolute one, reported), or a `gte`/`lte` pair for a range; text right after the entry
  box, alone in its paragraph, is the unit; an entry box inside a sentence is shown as _____;
- the item body and the interaction's prompt -> the prompt, modalFeedback -> the explanation
  (several joined, reported), feedbackInline/feedbackBlock appended and reported; XHTML -> our
  text via html_text (formatting lost is reported); the first picture of the body is the
  question's, the first of the feedback the explanation's (others reported).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from xml.etree.ElementTree import Element

from bot.content.formats.draft import (
    MULTIPLE,
    NUMBER,
    SINGLE,
    TRUE_FALSE,
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
from bot.core.kinds import MULTIPLE_MAX_OPTIONS, TRUE_FALSE_IDS, NumberAnswer

_FEEDBACK_INSIDE = ("feedbackInline", "feedbackBlock")
_NUMERIC = ("float", "integer")
_TRUE_FALSE_WORDS = {("true", "false"), ("vrai", "faux")}

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


def _children(element: Element, name: str) -> list[Element]:
    return [child for child in element if local(child.tag) == name]


def _first(element: Element, name: str) -> Element | None:
    found = _children(element, name)
    return found[0] if found else None


def _values(declaration: Element) -> list[str]:
    correct = _first(declaration, "correctResponse")
    if correct is None:
        return []
    return [(value.text or "").strip() for value in _children(correct, "value")]


class _Texts:
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


def read_item(root: Element, read: ItemRead) -> DraftQuestion | None:
    """The item as a draft question; None when it is left out (reported at its line)."""
    report, line = read.report, line_of(root)
    if local(root.tag) != "assessmentItem":
        report.skip(line, Msg(N_("<{name}> is not an assessmentItem"), name=local(root.tag)))
        return None
    body = _first(root, "itemBody")
    if body is None:
        report.skip(line, Msg(N_("the item has no itemBody")))
        return None
    interactions = [el for el in body.iter() if local(el.tag).endswith("Interaction")]
    if not interactions:
        report.skip(line_of(body), Msg(N_("no interaction: a text without a question")))
        return None
    if len(interactions) > 1:  # n >= 2: one plural form in en, fr and wo alike
        report.skip(
            line_of(interactions[1]),
            Msg(
                N_("{n} interactions in one item: quizbot reads items with one"),
                n=len(interactions),
            ),
        )
        return None
    interaction = interactions[0]
    name, at = local(interaction.tag), line_of(interaction)
    declarations = {d.get("identifier", ""): d for d in _children(root, "responseDeclaration")}
    declaration = declarations.get(interaction.get("responseIdentifier", ""))
    if name not in ("choiceInteraction", "textEntryInteraction"):
        report.skip(
            at,
            Msg(N_("{interaction}: not supported (quizbot reads choiceInteraction and a numeric "
                   "textEntryInteraction)"), interaction=name),
        )  # fmt: skip
        return None
    if declaration is None:
        report.skip(at, Msg(N_("the interaction's response has no responseDeclaration")))
        return None
    if root.get("adaptive") == "true":
        report.note(line, Msg(N_("adaptive item: read as a single attempt")))
    texts = _Texts(read, line)
    if name == "choiceInteraction":
        question = _choice(root, body, interaction, declaration, read, texts)
    else:
        question = _number(root, body, interaction, declaration, read, texts)
    if question is not None and texts.dropped:
        report.note(
            line, Msg(N_("formatting not kept: {tags}"), tags=", ".join(sorted(texts.dropped)))
        )
    return question


def _inside_feedback(
    element: Element, texts: _Texts, parts: list[str], outside: Element | None = None
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


def _explanation(root: Element, texts: _Texts, parts: list[str]) -> tuple[str, DraftPicture | None]:
    modal = _children(root, "modalFeedback")
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


def _prompt(
    body: Element, hidden: dict[int, str], texts: _Texts
) -> tuple[str, DraftPicture | None]:
    converted = texts.convert(inner_html(body, hidden))
    return converted.text, texts.picture(converted, line_of(body))


def _choice(
    root: Element,
    body: Element,
    interaction: Element,
    declaration: Element,
    read: ItemRead,
    texts: _Texts,
) -> DraftQuestion | None:
    report, at = read.report, line_of(interaction)
    several = declaration.get("cardinality") == "multiple"
    choices = _children(interaction, "simpleChoice")
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
    right = set(_values(declaration)) or _mapped_right(declaration)
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
        hidden = _inside_feedback(choice, texts, parts)
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
    hidden = _inside_feedback(body, texts, parts, outside=interaction)
    prompt_element = _first(interaction, "prompt")
    hidden[id(interaction)] = (
        f"<div>{inner_html(prompt_element)}</div>" if prompt_element is not None else ""
    )
    prompt, image = _prompt(body, hidden, texts)
    explanation, shown = _explanation(root, texts, parts)
    kind = MULTIPLE if several else SINGLE
    if not several and _true_false(ids, options):
        kind = TRUE_FALSE
        # True first, then False, as quizbot shows them; each keeps the file's own text.
        pairs = sorted(
            zip(options, ids, strict=True), key=lambda pair: _word(pair[0].text, pair[1])
        )
        options = [option for option, _ in pairs]
    return _question(read, texts, root, prompt, tuple(options), explanation, kind, image, shown)


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
    mapping = _first(declaration, "mapping")
    if mapping is None:
        return set()
    return {
        entry.get("mapKey", "")
        for entry in _children(mapping, "mapEntry")
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
    mapping = _first(declaration, "mapping")
    if mapping is None:
        report.note(at, Msg(N_("no mapping: quizbot's partial credit applies")))
        return
    default = _float(mapping.get("defaultValue"))
    weights = {
        entry.get("mapKey", ""): _float(entry.get("mappedValue"))
        for entry in _children(mapping, "mapEntry")
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


def _number(
    root: Element,
    body: Element,
    interaction: Element,
    declaration: Element,
    read: ItemRead,
    texts: _Texts,
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
    hidden.update(_inside_feedback(body, texts, parts))
    prompt, image = _prompt(body, hidden, texts)
    explanation, shown = _explanation(root, texts, parts)
    question = _question(read, texts, root, prompt, (), explanation, NUMBER, image, shown, key)
    if question is None:
        return None
    return replace(question, unit=texts.clean(unit)) if unit else question


def _number_key(
    root: Element, declaration: Element, report: Report, at: int
) -> NumberAnswer | None:
    values = _values(declaration)
    processing = _first(root, "responseProcessing")
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


def _question(
    read: ItemRead,
    texts: _Texts,
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
