"""Moodle GIFT -> quiz drafts: single-choice, true/false (`{T}`, `{FALSE}`) and numerical
(`{#3.5:0.1}`, `{#1..5}`, `{#=3.5:0.1#feedback =%50%3:1}`) questions; other kinds (partial
credit, matching...) are reported by line and skipped. A numerical question keeps one answer,
its first full-credit one: the others (partial credit, alternatives) are reported by line, as
quizbot accepts one value with a tolerance, or one range. GIFT has no unit: a unit is not
written (the export says how many were left out).

Reads `::title::`, `$CATEGORY:` (one quiz per category), `//` comment lines, `[format]` tags
(`[html]` text converted to ours, as Moodle XML's), `=` right / `~` wrong answers with `%weight%`,
`#` per-answer feedback, `####` general feedback, the "missing word" layout (text after the
answers), and the escapes `\\ \\~ \\= \\# \\{ \\} \\: \\n`. quizbot shows one explanation per
question: general feedback and the right answer's feedback become it; feedback on a wrong answer is
appended to it, and reported.

This module cuts a file into quizzes (one per category) and questions (title, format tag,
prompt, the answer block's place); what an answer block means is `gift_answers.py`, the escapes
`gift_units.py` (one linear pass: a hostile file costs time linear in its size, and `Limits`
bounds that size), the way back to GIFT `gift_writer.py`.
"""

from __future__ import annotations

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
    slug,
    split_lines,
    too_big,
    unique,
)
from bot.content.formats.gift_answers import is_true_false, read_answers, read_numerical
from bot.content.formats.gift_units import Unit, find, plain_text, scan
from bot.content.formats.html_text import html_to_text
from bot.content.formats.moodle_text import picture
from bot.content.problems import N_, Msg

_FORMATS = ("[html]", "[markdown]", "[plain]", "[moodle]")


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
        # A byte-order mark (Notepad's UTF-8) must not hide a first `//` comment line.
        stripped = raw.strip().removeprefix("\ufeff").strip()
        if stripped.startswith("//"):
            continue
        if not stripped:
            if lines:
                blocks.append((start, "\n".join(lines)))
                lines = []
            continue
        if not lines:
            start = number
        lines.append(stripped)
    if lines:
        blocks.append((start, "\n".join(lines)))
    return blocks


def _category_title(path: str) -> str:
    """The last part of a category path (`$course$/top/Optimizers` -> Optimizers; `//` is /)."""
    parts = path.strip().replace("//", "\0").split("/")
    return parts[-1].replace("\0", "/").strip()


def _question(
    block: str, line: int, number: int, result: ParseResult, limits: Limits
) -> DraftQuestion | None:
    units = scan(block)
    title = ""
    if units[:2] == [(":", False), (":", False)]:
        end = find(units, "::", 2)
        if end < 0:
            result.skip(line, Msg(N_("'::' title not closed")))
            return None
        title, units = plain_text(units[2:end]), units[end + 2 :]
    head = plain_text(units[:10]).lower()
    html = _Html()
    for tag in _FORMATS:
        if head.startswith(tag):
            units = units[[c for c, _ in units].index("]") + 1 :]
            html.on = tag == "[html]"
    question = _read(units, line, title, number, result, limits, html)
    html.report(line, result)
    return question


class _Html:
    """A `[html]` question's text fields (Moodle's GIFT export writes every question made in
    its editor so, answers in `<p>`) as our text, like Moodle XML's: tags dropped, entities
    decoded; the formatting and pictures lost are reported once for the question."""

    def __init__(self) -> None:
        self.on = False
        self.dropped: set[str] = set()
        self.lost: list[Msg] = []

    def __call__(self, text: str) -> str:
        if not self.on:
            return text
        converted = html_to_text(text)
        self.dropped.update(converted.dropped)
        for image in converted.images:
            shown = picture(image, {})  # GIFT holds no files: every picture is left out
            if isinstance(shown, Msg) and shown not in self.lost:
                self.lost.append(shown)
        return converted.text.strip()

    def report(self, line: int, result: ParseResult) -> None:
        if self.dropped:
            result.note(line, Msg(N_("formatting not kept: {tags}"),
                                  tags=", ".join(sorted(self.dropped))))  # fmt: skip
        for lost in self.lost:
            result.note(line, lost)


def _read(
    units: list[Unit],
    line: int,
    title: str,
    number: int,
    result: ParseResult,
    limits: Limits,
    html: _Html,
) -> DraftQuestion | None:
    opened = find(units, "{")
    if opened < 0:
        result.skip(line, Msg(N_("no answer block {...}: a description or an unfinished question")))
        return None
    closed = find(units, "}", opened + 1)
    if closed < 0:
        result.skip(line, Msg(N_("answer block '{' is never closed with '}'")))
        return None
    before, after = html(plain_text(units[:opened])), html(plain_text(units[closed + 1 :]))
    prompt = before
    if after:
        prompt = f"{before} _____ {after}".strip()
        result.note(line, Msg(N_("missing-word question: the blank is shown as _____")))
    qid = slug(title, f"q{number}") if title else f"q{number}"
    inner = plain_text(units[opened + 1 : closed])
    if inner.startswith("#") and not inner.startswith("####"):
        numerical = read_numerical(units[opened + 1 : closed], line, result, html)
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
    parsed = read_answers(units[opened + 1 : closed], line, result, limits, html)
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
        if is_true_false(plain_text(units[opened + 1 : closed]))
        else MULTIPLE
        if several
        else SINGLE,
    )
