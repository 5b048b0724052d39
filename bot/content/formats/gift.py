"""Moodle GIFT <-> quiz drafts: single-choice, true/false (`{T}`, `{FALSE}`) and numerical
(`{#3.5:0.1}`, `{#1..5}`, `{#=3.5:0.1#feedback =%50%3:1}`) questions; other kinds (partial
credit, matching...) are reported by line and skipped. A numerical question keeps one answer,
its first full-credit one: the others (partial credit, alternatives) are reported by line, as
quizbot accepts one value with a tolerance, or one range. GIFT has no unit: a unit is not
written (the export says how many were left out).

Reads `::title::`, `$CATEGORY:` (one quiz per category), `//` comment lines, `[format]` tags,
`=` right / `~` wrong answers with `%weight%`, `#` per-answer feedback, `####` general feedback,
the "missing word" layout (text after the answers), and the escapes `\\ \\~ \\= \\# \\{ \\} \\:
\\n`. quizbot shows one explanation per question: general feedback and the right answer's
feedback become it; feedback on a wrong answer is appended to it, and reported.

The scanner walks the text once, character by character (no backtracking regular expressions),
so a hostile file costs time linear in its size, and `Limits` bounds that size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from bot.content.drift import TRUE_FALSE_LABELS
from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    MULTIPLE,
    NUMBER,
    SINGLE,
    TRUE_FALSE,
    DraftOption,
    DraftQuestion,
    DraftQuiz,
    Limits,
    ParseResult,
    clean_text,
    option_letter,
    slug,
    split_lines,
    too_big,
    unique,
)
from bot.content.problems import N_, Msg
from bot.core.kinds import MULTIPLE_MAX_OPTIONS, NumberAnswer

Unit = tuple[str, bool]  # a character, and whether it was escaped (then it is only text)
_ESCAPABLE = "~=#{}:\\"
_FORMATS = ("[html]", "[markdown]", "[plain]", "[moodle]")
_TRUE_FALSE = {"T", "F", "TRUE", "FALSE"}
# Spaces that are text, not layout: French puts them before : ; ! ? and inside « » (a GIFT
# export of a French translation carries them; collapsing them lost its typography).
_NO_BREAK = "\u00a0\u202f\u2007"


def parse(
    text: str, name: str = "quiz", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    """Every single-choice question of a GIFT file, one draft per `$CATEGORY` (or one for all)."""
    result = ParseResult()
    if too_big(text, result, limits):
        return result
    builder = _Quizzes(name, lang, result)
    count = 0
    for line, block in _blocks(text):
        if block.startswith("$CATEGORY:"):
            first, _, rest = block.partition("\n")
            builder.category(_category_title(first[len("$CATEGORY:") :]), line)
            if not rest.strip():
                continue
            block, line = rest, line + 1
        count += 1
        if count > limits.max_questions:
            result.skip(
                line,
                Msg(N_("more than {n} questions: the rest is not read"), n=limits.max_questions),
            )
            break
        question = _question(block, line, builder.next_number(), result, limits)
        if question is not None:
            builder.add(_labelled(question, lang))
    result.quizzes.extend(builder.done())
    return result


class _Quizzes:
    """Collects questions into one quiz per category, with ids unique inside each quiz."""

    def __init__(self, name: str, lang: str, result: ParseResult) -> None:
        self.lang, self.result = lang, result
        self.title, self.line = name, 1
        self.questions: list[DraftQuestion] = []
        self.ids: set[str] = set()
        self.quizzes: list[DraftQuiz] = []
        self.quiz_ids: set[str] = set()

    def category(self, title: str, line: int) -> None:
        self._close()
        self.title, self.line = title or self.title, line

    def next_number(self) -> int:
        return len(self.questions) + 1

    def add(self, question: DraftQuestion) -> None:
        qid = unique(question.id, self.ids)
        if qid != question.id:
            self.result.note(question.line, Msg(N_("question id '{id}' taken: using '{other}'"),
                                                id=question.id, other=qid))  # fmt: skip
        self.questions.append(_with_id(question, qid))

    def _close(self) -> None:
        if self.questions:
            quiz_id = unique(slug(self.title, "quiz"), self.quiz_ids)
            self.quizzes.append(
                DraftQuiz(quiz_id, self.title, self.lang, tuple(self.questions), line=self.line)
            )
        self.questions, self.ids = [], set()

    def done(self) -> list[DraftQuiz]:
        self._close()
        return self.quizzes


def _with_id(question: DraftQuestion, qid: str) -> DraftQuestion:
    return replace(question, id=qid)


def _labelled(question: DraftQuestion, lang: str) -> DraftQuestion:
    """GIFT's `{T}`/`{F}` has no words: a true/false question's options take the file's
    language's labels (Vrai/Faux in a French file), which its checker asks for."""
    labels = TRUE_FALSE_LABELS.get(lang)
    if question.kind != TRUE_FALSE or labels is None or len(question.options) != 2:
        return question
    options = tuple(
        replace(option, text=label) for option, label in zip(question.options, labels, strict=True)
    )
    return replace(question, options=options)


def _blocks(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each run of non-blank lines; `//` comment lines left out."""
    blocks: list[tuple[int, str]] = []
    lines: list[str] = []
    start = 0
    for number, raw in enumerate(split_lines(text), start=1):
        stripped = raw.strip()
        if stripped.startswith("//"):
            continue
        if not stripped:
            if lines:
                blocks.append((start, "\n".join(lines)))
                lines = []
            continue
        if not lines:
            start = number
        lines.append(stripped.removeprefix("\ufeff"))
    if lines:
        blocks.append((start, "\n".join(lines)))
    return blocks


def _category_title(path: str) -> str:
    """The last part of a category path (`$course$/top/Optimizers` -> Optimizers; `//` is /)."""
    parts = path.strip().replace("//", "\0").split("/")
    return parts[-1].replace("\0", "/").strip()


def _units(text: str) -> list[Unit]:
    units: list[Unit] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and (text[i + 1] in _ESCAPABLE or text[i + 1] == "n"):
            units.append(("\n" if text[i + 1] == "n" else text[i + 1], True))
            i += 2
            continue
        units.append((ch, False))
        i += 1
    return units


def _find(units: Sequence[Unit], wanted: str, start: int = 0) -> int:
    """Index of the first unescaped `wanted` (one or more characters) from `start`, or -1."""
    size = len(wanted)
    for i in range(start, len(units) - size + 1):
        if all(units[i + k] == (wanted[k], False) for k in range(size)):
            return i
    return -1


def _text(units: Sequence[Unit]) -> str:
    """Plain text: runs of unescaped whitespace (line breaks too) become one space."""
    out: list[str] = []
    for ch, literal in units:
        if not literal and ch.isspace() and ch not in _NO_BREAK:
            if out and out[-1] != " ":
                out.append(" ")
            continue
        out.append(ch)
    return "".join(out).strip(" ")


def _question(
    block: str, line: int, number: int, result: ParseResult, limits: Limits
) -> DraftQuestion | None:
    units = _units(block)
    title = ""
    if units[:2] == [(":", False), (":", False)]:
        end = _find(units, "::", 2)
        if end < 0:
            result.skip(line, Msg(N_("'::' title not closed")))
            return None
        title, units = _text(units[2:end]), units[end + 2 :]
    head = _text(units[:10]).lower()
    for tag in _FORMATS:
        if head.startswith(tag):
            units = units[[c for c, _ in units].index("]") + 1 :]
            if tag == "[html]":
                result.note(line, Msg(N_("HTML text format: tags are kept as plain text")))
    opened = _find(units, "{")
    if opened < 0:
        result.skip(line, Msg(N_("no answer block {...}: a description or an unfinished question")))
        return None
    closed = _find(units, "}", opened + 1)
    if closed < 0:
        result.skip(line, Msg(N_("answer block '{' is never closed with '}'")))
        return None
    before, after = _text(units[:opened]), _text(units[closed + 1 :])
    prompt = before
    if after:
        prompt = f"{before} _____ {after}".strip()
        result.note(line, Msg(N_("missing-word question: the blank is shown as _____")))
    qid = slug(title, f"q{number}") if title else f"q{number}"
    inner = _text(units[opened + 1 : closed])
    if inner.startswith("#") and not inner.startswith("####"):
        numerical = _numerical(units[opened + 1 : closed], line, result)
        if numerical is None:
            return None
        if not prompt:
            result.skip(line, Msg(N_("the question has no text")))
            return None
        key, explanation = numerical
        return DraftQuestion(
            qid,
            clean_text(prompt, line, result, limits),
            (),
            clean_text(explanation, line, result, limits),
            line,
            NUMBER,
            key,
        )
    parsed = _answers(units[opened + 1 : closed], line, result, limits)
    if parsed is None:
        return None
    options, explanation, several = parsed
    if not prompt:
        result.skip(line, Msg(N_("the question has no text")))
        return None
    return DraftQuestion(
        qid,
        clean_text(prompt, line, result, limits),
        tuple(DraftOption(clean_text(o.text, line, result, limits), o.correct) for o in options),
        clean_text(explanation, line, result, limits),
        line,
        TRUE_FALSE
        if _is_true_false(_text(units[opened + 1 : closed]))
        else MULTIPLE
        if several
        else SINGLE,
    )


def _answers(
    block: list[Unit], line: int, result: ParseResult, limits: Limits
) -> tuple[list[DraftOption], str, bool] | None:
    """The options, the explanation, and whether it is a several-answer question (kind:
    multiple: more than one right answer, or partial-credit weights)."""
    inner = _text(block)
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
    if _is_true_false(inner):
        return (*_true_false(inner, line, result), False)
    general = ""
    split = _find(block, "####")
    if split >= 0:
        general, block = _text(block[split + 4 :]), block[:split]
    starts = [i for i, (ch, literal) in enumerate(block) if ch in "=~" and not literal]
    if not starts or _text(block[: starts[0]]):
        result.skip(line, Msg(N_("answers must start with = (right) or ~ (wrong)")))
        return None
    options: list[DraftOption] = []
    feedback: list[tuple[DraftOption, str]] = []
    weights: list[float] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(block)
        token = block[start + 1 : end]
        if _find(token, "->") >= 0:
            result.skip(line, Msg(N_("matching question: not supported")))
            return None
        weight, token = _weight(token)
        hash_at = _find(token, "#")
        note = _text(token[hash_at + 1 :]) if hash_at >= 0 else ""
        text = _text(token[:hash_at] if hash_at >= 0 else token)
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


def _numerical(
    block: list[Unit], line: int, result: ParseResult
) -> tuple[NumberAnswer, str] | None:
    """`#value`, `#value:tolerance`, `#low..high`, or `#=answer ... =answer` (each with an
    optional `%weight%` and `#feedback`), then an optional `####` general feedback."""
    general = ""
    body = block[_find(block, "#") + 1 :]
    split = _find(body, "####")
    if split >= 0:
        general, body = _text(body[split + 4 :]), body[:split]
    starts = [i for i, (ch, literal) in enumerate(body) if ch == "=" and not literal]
    if not starts:
        starts, tokens = [0], [body]
    else:
        if _text(body[: starts[0]]):
            result.skip(line, Msg(N_("numerical answers must each start with =")))
            return None
        tokens = [body[s + 1 : e] for s, e in zip(starts, [*starts[1:], len(body)], strict=True)]
    kept: tuple[NumberAnswer, str] | None = None
    dropped: list[str] = []
    for token in tokens:
        weight, token = _weight(token)
        hash_at = _find(token, "#")
        note = _text(token[hash_at + 1 :]) if hash_at >= 0 else ""
        written = _text(token[:hash_at] if hash_at >= 0 else token)
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


def _is_true_false(inner: str) -> bool:
    return inner.split("#", 1)[0].strip().upper() in _TRUE_FALSE


def _true_false(inner: str, line: int, result: ParseResult) -> tuple[list[DraftOption], str]:
    """`{T}`, `{FALSE#feedback}`, `{T####explanation}` -> options True, False (in that order)."""
    key, _, rest = inner.partition("#")
    right = key.strip().upper().startswith("T")
    notes = [part.strip() for part in rest.split("#") if part.strip()]
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


def escape(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPABLE:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        else:
            out.append(ch)
    return "".join(out)


def _weighted(options: Sequence[DraftOption]) -> list[str]:
    """A select-all question as Moodle's multiple-answer form: each right answer weighs
    100/k %, each wrong one -100/k % (k right answers), which Moodle floors at 0 as quizbot
    does: the same partial credit on both sides (bot/core/kinds.py)."""
    share = 100 / sum(o.correct for o in options)
    weight = f"{share:.5f}".rstrip("0").rstrip(".")
    return [f"~%{'' if o.correct else '-'}{weight}%{escape(o.text)}" for o in options]


def write(quizzes: Sequence[DraftQuiz]) -> str:
    """GIFT text: a `$CATEGORY` per quiz, `::id::` titles, explanations as general feedback."""
    out: list[str] = []
    for quiz in quizzes:
        out.append(f"// quizbot quiz {quiz.id} ({quiz.lang})")
        out.append(f"$CATEGORY: {quiz.title.replace('/', '//')}")
        out.append("")
        for question in quiz.questions:
            out.append(f"::{escape(question.id)}::{escape(question.prompt)} {{")
            if question.kind == NUMBER and question.number is not None:
                out.append("#" + _number_text(question.number))
            elif question.kind == TRUE_FALSE:
                # GIFT's own true/false: Moodle shows its True/False, not our option texts.
                out.append("TRUE" if question.options[0].correct else "FALSE")
            elif question.kind == MULTIPLE:
                out += _weighted(question.options)
            else:
                out += [("=" if o.correct else "~") + escape(o.text) for o in question.options]
            if question.explanation:
                out.append("####" + escape(question.explanation))
            out += ["}", ""]
    return "\n".join(out)


def _number_text(key: NumberAnswer) -> str:
    """A key as GIFT writes it: `3.5:0.1`, `64`, `1..5` (repr keeps every digit, `g` drops .0)."""

    def num(value: float) -> str:
        return format(value, ".15g")

    if key.value is not None:
        return num(key.value) + (f":{num(key.tolerance)}" if key.tolerance else "")
    assert key.low is not None and key.high is not None
    return f"{num(key.low)}..{num(key.high)}"
