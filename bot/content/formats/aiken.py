"""Aiken <-> quiz drafts: a question line, lettered options, `ANSWER: X` (Moodle's simplest format).

    Which call applies the gradients?
    A. optimizer.zero_grad()
    B) optimizer.step()
    ANSWER: B

The question may run over several lines (joined with spaces); questions may be separated by
blank lines, and a blank line before an option or before `ANSWER:` is ignored. Aiken has no
feedback, so imported questions have no explanation (the checker then asks for one). Parsing
is one pass over the lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    SEVERAL_ANSWERS,
    DraftOption,
    DraftQuestion,
    DraftQuiz,
    Limits,
    ParseResult,
    clean_text,
    option_letter,
    several_letters,
    slug,
    split_lines,
    too_big,
)
from bot.content.problems import N_, Msg, option_count

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(slots=True)
class _Pending:
    line: int
    prompt: list[str] = field(default_factory=list)
    options: list[tuple[str, str, int]] = field(default_factory=list)  # (letter, text, line)
    gap: bool = False  # a blank line after some options: an option or ANSWER: may still follow


def _option(line: str) -> tuple[str, str] | None:
    """`A) text` or `A. text`; `a) text` too, read as `A` (Moodle wants capitals, but word
    processors and many teachers write lowercase, and such a question used to be skipped as
    "0 options"). Only after a question's prompt, so a prompt line is never taken for one."""
    if len(line) >= 2 and "A" <= line[0].upper() <= "Z" and line[0].isascii() and line[1] in ".)":
        rest = line[2:]
        if rest[:1].isspace() and rest.strip():
            return line[0].upper(), rest.strip()
    return None


def parse(
    text: str, name: str = "quiz", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    """One quiz named after `name`, every complete question in it; the rest reported by line."""
    result = ParseResult()
    if too_big(text, result, limits):
        return result
    questions: list[DraftQuestion] = []
    pending: _Pending | None = None
    for number, raw in enumerate(split_lines(text), start=1):
        line = raw.strip().removeprefix("\ufeff")
        if not line:
            # Not the end of the question yet: a blank line before an option or before
            # ANSWER: is common in teachers' files, and Moodle's own importer ignores it.
            if pending is not None and pending.options:
                pending.gap = True
            continue
        if line.upper().startswith("ANSWER:"):
            if pending is None:
                result.skip(number, Msg(N_("'ANSWER:' without a question before it")))
                continue
            question = _finish(pending, line[7:].strip(), len(questions) + 1, result, limits)
            if question is not None:
                if len(questions) >= limits.max_questions:
                    result.skip(number, Msg(N_("more than {n} questions"), n=limits.max_questions))
                    break
                questions.append(question)
            pending = None
            continue
        option = _option(line)
        if pending is not None and pending.gap and option is None:
            # After a blank line, a line that is neither begins the next question.
            result.skip(pending.line, Msg(N_("no 'ANSWER:' line after the options")))
            pending = None
        if pending is None:
            pending = _Pending(number)
        if option is not None and pending.prompt:
            pending.options.append((*option, number))
        elif pending.options:
            result.skip(
                pending.line, Msg(N_("line {n} is neither an option nor 'ANSWER:'"), n=number)
            )
            pending = None
        else:
            pending.prompt.append(line)
    if pending is not None:
        result.skip(pending.line, Msg(N_("the file ends before this question's 'ANSWER:' line")))
    if questions:
        result.quizzes.append(DraftQuiz(slug(name, "quiz"), name, lang, tuple(questions), line=1))
    return result


def _finish(
    pending: _Pending, answer: str, number: int, result: ParseResult, limits: Limits
) -> DraftQuestion | None:
    line = pending.line
    letters = "".join(letter for letter, _, _ in pending.options)
    # The count first: past the limit (or past Z) no lettering can be right, and the letters
    # are only ever compared with the alphabet, never used to index a bounded table.
    if not 2 <= len(letters) <= limits.max_options:
        result.skip(
            line,
            option_count(len(letters), 2, limits.max_options),
        )
        return None
    if letters != _LETTERS[: len(letters)]:
        result.skip(
            line,
            Msg(
                N_("options must be lettered A, B, C... in order (found {letters})"),
                letters=letters,
            ),
        )
        return None
    if several_letters(answer, "".join(letters)):
        result.skip(line, Msg(SEVERAL_ANSWERS, answer=answer))
        return None
    if answer.upper() not in letters or len(answer) != 1:
        result.skip(
            line,
            Msg(
                N_("ANSWER '{answer}' names no option (options: {options})"),
                answer=answer,
                options=", ".join(letters),
            ),
        )
        return None
    options = tuple(
        DraftOption(clean_text(text, line, result, limits), letter == answer.upper(), at)
        for letter, text, at in pending.options
    )
    prompt = clean_text(" ".join(pending.prompt), line, result, limits)
    return DraftQuestion(f"q{number}", prompt, options, "", line)


def write(quizzes: Sequence[DraftQuiz]) -> str:
    """Aiken text; explanations have no place in the format and are left out."""
    out: list[str] = []
    for quiz in quizzes:
        for question in quiz.questions:
            out.append(" ".join(question.prompt.split("\n")))
            out += [
                f"{option_letter(i)}. {' '.join(o.text.split(chr(10)))}"
                for i, o in enumerate(question.options)
            ]
            out += [f"ANSWER: {option_letter(question.answer)}", ""]
    return "\n".join(out)
