"""One GIFT answer block `{...}` -> options and an explanation: single and several right answers
(`=`, `~`, `%weight%`), true/false (`{T}`, `{FALSE}`), numerical (`{#3.5:0.1}`, `{#1..5}`,
`{#=3.5:0.1 =%50%3:1}`), per-answer `#` and general `####` feedback. Apart from `gift.py`, which
cuts a file into questions: this is what a question's answers mean to quizbot, and every kind
GIFT has that quizbot has not is reported here.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from bot.content.formats.draft import DraftOption, Limits, ParseResult, option_letter
from bot.content.formats.gift_units import Unit, find, plain_text
from bot.content.problems import N_, Msg
from bot.core.kinds import MULTIPLE_MAX_OPTIONS, NumberAnswer

_TRUE_FALSE = {"T", "F", "TRUE", "FALSE"}

# A text field as written -> our text: as is, or a `[html]` question's HTML converted.
Field = Callable[[str], str]


def _as_written(text: str) -> str:
    return text


def read_answers(
    block: list[Unit], line: int, result: ParseResult, limits: Limits, field: Field = _as_written
) -> tuple[list[DraftOption], str, bool] | None:
    """The options, the explanation, and whether it is a several-answer question (kind:
    multiple: more than one right answer, or partial-credit weights)."""
    inner = plain_text(block)
    if not inner:
        result.skip(
            line,
            Msg(
                N_(
                    "essay question (empty answer block): not supported; GIFT has no "
                    "flashcards (a front and a back): write kind: flashcard in YAML or the CSV "
                    "layout"
                )
            ),
        )
        return None
    if is_true_false(inner):
        return (*_true_false(inner, line, result, field), False)
    general = ""
    split = find(block, "####")
    if split >= 0:
        general, block = field(plain_text(block[split + 4 :])), block[:split]
    starts = [i for i, (ch, literal) in enumerate(block) if ch in "=~" and not literal]
    if not starts or plain_text(block[: starts[0]]):
        result.skip(line, Msg(N_("answers must start with = (right) or ~ (wrong)")))
        return None
    options: list[DraftOption] = []
    feedback: list[tuple[DraftOption, str]] = []
    weights: list[float] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(block)
        token = block[start + 1 : end]
        if find(token, "->") >= 0:
            result.skip(line, Msg(N_("matching question: not supported")))
            return None
        weight, token = _weight(token)
        hash_at = find(token, "#")
        note = field(plain_text(token[hash_at + 1 :])) if hash_at >= 0 else ""
        text = field(plain_text(token[:hash_at] if hash_at >= 0 else token))
        # A positive weight makes an answer right: `~%50%a ~%50%c` has two right answers.
        right = block[start][0] == "=" if weight is None else weight > 0
        if weight is not None:
            weights.append(weight)
        if not text:
            result.skip(line, Msg(N_("an answer is empty")))
            return None
        option = DraftOption(text, right)
        options.append(option)
        if note:
            feedback.append((option, note))
    if all(block[s][0] == "=" for s in starts):
        result.skip(line, Msg(N_("short-answer question (only = answers): not supported")))
        return None
    right_count = sum(o.correct for o in options)
    several = right_count > 1 or any(0 < w < 100 for w in weights)
    if not right_count:
        result.skip(line, Msg(N_("no right answer (= or a positive %weight%)")))
        return None
    if several and right_count == len(options):
        result.skip(line, Msg(N_("every answer has a positive weight: a select-all question "
                                 "needs at least one wrong answer")))  # fmt: skip
        return None
    most = min(limits.max_options, MULTIPLE_MAX_OPTIONS) if several else limits.max_options
    if not 2 <= len(options) <= most:
        what = Msg(N_("a several-answer question")) if several else Msg(N_("a question"))
        result.skip(
            line,
            Msg(
                N_("{count} answers: {what} needs 2 to {most}"),
                count=len(options),
                what=what,
                most=most,
            ),
        )
        return None
    if several and any(w not in (0, 100) for w in weights):
        result.note(
            line,
            Msg(
                N_(
                    "several right answers: kind multiple, the answers with a positive weight are "
                    "right; their weights are not kept (quizbot's partial credit applies)"
                )
            ),
        )
    elif any(w < 0 for w in weights):
        result.note(line, Msg(N_("negative weights ignored: a wrong answer costs nothing")))
    return options, _explanation(general, feedback, options, line, result), several


def read_numerical(
    block: list[Unit], line: int, result: ParseResult, field: Field = _as_written
) -> tuple[NumberAnswer, str] | None:
    """`#value`, `#value:tolerance`, `#low..high`, or `#=answer ... =answer` (each with an
    optional `%weight%` and `#feedback`), then an optional `####` general feedback."""
    general = ""
    body = block[find(block, "#") + 1 :]
    split = find(body, "####")
    if split >= 0:
        general, body = field(plain_text(body[split + 4 :])), body[:split]
    starts = [i for i, (ch, literal) in enumerate(body) if ch == "=" and not literal]
    if not starts:
        starts, tokens = [0], [body]
    else:
        if plain_text(body[: starts[0]]):
            result.skip(line, Msg(N_("numerical answers must each start with =")))
            return None
        tokens = [body[s + 1 : e] for s, e in zip(starts, [*starts[1:], len(body)], strict=True)]
    kept: tuple[NumberAnswer, str] | None = None
    dropped: list[str] = []
    for token in tokens:
        weight, token = _weight(token)
        hash_at = find(token, "#")
        note = field(plain_text(token[hash_at + 1 :])) if hash_at >= 0 else ""
        written = plain_text(token[:hash_at] if hash_at >= 0 else token)
        key = _number_key(written)
        if key is None:
            result.skip(line, Msg(N_("numerical answer '{written}' is not a number, "
                                     "value:tolerance or low..high"), written=written))  # fmt: skip
            return None
        if kept is None and (weight is None or weight >= 100):
            kept = (key, note)
        else:
            dropped.append(written + (f" ({weight:g}%)" if weight is not None else ""))
    if kept is None:
        result.skip(line, Msg(N_("numerical question without a full-credit answer")))
        return None
    if dropped:
        result.note(
            line,
            Msg(
                N_("numerical answers left out (quizbot keeps one value or range): {answers}"),
                answers=", ".join(dropped),
            ),
        )
    key, note = kept
    return key, " ".join(part for part in (general, note) if part)


def _number_key(written: str) -> NumberAnswer | None:
    """`3.5`, `3.5:0.1` or `1..5` as a key; None when it is none of them (or not finite)."""
    try:
        if ".." in written:
            low, high = (float(part) for part in written.split("..", 1))
            numbers = [low, high]
            key = NumberAnswer(low=low, high=high)
        else:
            value, _, tolerance = written.partition(":")
            numbers = [float(value), float(tolerance or 0)]
            key = NumberAnswer(value=numbers[0], tolerance=numbers[1])
    except ValueError:  # not numbers, a negative tolerance, low above high
        return None
    return key if all(math.isfinite(n) for n in numbers) else None


def is_true_false(inner: str) -> bool:
    return inner.split("#", 1)[0].strip().upper() in _TRUE_FALSE


def _true_false(
    inner: str, line: int, result: ParseResult, field: Field
) -> tuple[list[DraftOption], str]:
    """`{T}`, `{FALSE#feedback}`, `{T####explanation}` -> options True, False (in that order).
    Moodle reads `{T#if wrong#if right####general}` (qformat_gift's split_truefalse_comment:
    the first feedback is for a wrong answer): the explanation is the general feedback, then
    the right answer's, then the wrong answer's, as for a choice question."""
    head, _, general = inner.partition("####")
    key, _, answers = head.partition("#")
    right = key.strip().upper().startswith("T")
    wrong, _, if_right = answers.partition("#")
    notes = [note for part in (general, if_right, wrong) if (note := field(part.strip()))]
    if len(notes) > 1:
        result.note(line, Msg(N_("true/false feedback on each answer joined into one explanation")))
    options = [DraftOption("True", right), DraftOption("False", not right)]
    return options, " ".join(notes)


def _weight(token: list[Unit]) -> tuple[float | None, list[Unit]]:
    text = "".join(ch for ch, _ in token).lstrip()
    if not text.startswith("%"):
        return None, token
    end = text.find("%", 1)
    try:
        value = float(text[1:end]) if end > 0 else None
    except ValueError:
        value = None
    if value is None:
        return None, token
    skip = len(token) - len(text) + end + 1
    return value, token[skip:]


def _explanation(
    general: str,
    feedback: list[tuple[DraftOption, str]],
    options: list[DraftOption],
    line: int,
    result: ParseResult,
) -> str:
    parts = [general] if general else []
    for option, note in feedback:
        if note in parts:
            continue
        if option.correct:
            parts.append(note)
        else:
            letter = option_letter(options.index(option))
            result.note(
                line,
                Msg(
                    N_(
                        "feedback on wrong answer {letter} appended to the explanation (quizbot "
                        "shows one explanation per question)"
                    ),
                    letter=letter,
                ),
            )
            parts.append(f"“{option.text}”: {note}")
    return " ".join(parts)
