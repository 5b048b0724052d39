"""One English question's rules: its id, its options and answer key for its kind (a number's
in numbers.py), its size against Telegram's message, its text (code marks, placeholders,
links), and give-aways in its options. Apart from checks.py, which walks a content set (guides,
quizzes, prompts repeated across them) and hands each question here; translations.py applies
the per-option and size rules to each language with the same functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.content import drift, links, numbers, quality, text_checks
from bot.content.problems import N_, Msg, Problems, option_count
from bot.content.schema import QuestionSource, QuizSource
from bot.content.sources import Parsed
from bot.content.yaml_nodes import KeyPath, key_str
from bot.core import limits
from bot.core.kinds import MULTIPLE_MAX_OPTIONS, MULTIPLE_MIN_OPTIONS, TRUE_FALSE_IDS
from bot.core.models import SOURCE_LANGUAGE

ID = re.compile(r"^[A-Za-z0-9_-]+$")  # guide, question and option ids alike
ID_RULE = N_("use only letters, digits, _ and -")
_Error = Callable[[KeyPath, str], None]


def check_question(
    parsed: Parsed[QuizSource], question_id: str, question: QuestionSource, sink: Problems
) -> None:
    path, doc = parsed.path, parsed.doc
    at: KeyPath = ("questions", question_id)

    def error(where: KeyPath, message: str) -> None:
        sink.error(path, doc.line(where), key_str(where), message)

    if not ID.match(question_id):
        error(at, Msg(N_("question id '{id}': {rule}"), id=question_id, rule=Msg(ID_RULE)))
    if question.kind == "flashcard":
        _check_flashcard(question, at, error)
    elif question.kind == "number":
        numbers.check_number(question, at, error)
    else:
        _check_options(question, at, error)
    size = limits.question_chars(question.prompt, list(question.options.values()))
    if size > limits.MESSAGE_MAX_CHARS:
        error((*at, "prompt"), too_long(size))
    check_english(parsed, (*at, "prompt"), question.prompt, sink)
    for option_id, text in question.options.items():
        check_english(parsed, (*at, "options", option_id), text, sink)
    check_english(parsed, (*at, "explanation"), question.explanation, sink)
    if len(question.explanation) > limits.MESSAGE_MAX_CHARS - limits.QUESTION_OVERHEAD_CHARS:
        error((*at, "explanation"), Msg(N_("explanation too long for one Telegram message")))
    if question.kind == "true_false":
        for option_id, text in question.options.items():
            for message in drift.true_false_label(SOURCE_LANGUAGE, option_id, text):
                error((*at, "options", option_id), message)
    warnings: list[tuple[KeyPath, str | None]] = [
        ((*at, "explanation"), quality.popup_cut(question.explanation))
    ]
    if isinstance(question.answer, list):
        warnings += option_warnings(question, question.options, SOURCE_LANGUAGE, at)
    for where, warning in warnings:
        if warning is not None:
            sink.warn(path, doc.line(where), key_str(where), warning)


def option_warnings(
    question: QuestionSource, options: dict[str, str], lang: str, at: KeyPath
) -> list[tuple[KeyPath, str | None]]:
    """Give-aways in one language's options: the right ones the longest, or absolute words
    only in wrong ones (a single or select-all question; true/false labels are fixed)."""
    if question.kind not in ("single", "multiple") or not isinstance(question.answer, list):
        return []
    answer = [a for a in question.answer if a in options]
    if not answer:
        return []
    found: list[tuple[KeyPath, str | None]] = [
        ((*at, "options", answer[0]), quality.giveaway(options, answer))
    ]
    for option_id, message in quality.absolutes_in_distractors(options, answer, lang).items():
        found.append(((*at, "options", option_id), message))
    return found


def _check_flashcard(question: QuestionSource, at: KeyPath, error: _Error) -> None:
    """A flashcard is a front (`prompt`) and a back (`explanation`): options, an answer or a
    unit would be silently ignored, so each is an error."""
    if question.options:
        error((*at, "options"), Msg(N_("a flashcard has no options: its back is its explanation")))
    if question.answer is not None:
        error((*at, "answer"),
              Msg(N_("a flashcard has no answer: the learner rates their own recall")))  # fmt: skip
    if question.unit is not None:
        error((*at, "unit"), Msg(N_("only a number question has a unit (this one is {kind})"),
                                 kind=question.kind))  # fmt: skip


def _check_options(question: QuestionSource, at: KeyPath, error: _Error) -> None:
    """The options and answer of a question asked with buttons (every kind but number)."""
    count = len(question.options)
    if not limits.MIN_OPTIONS <= count <= limits.MAX_OPTIONS:
        error(
            (*at, "options"),
            option_count(count, limits.MIN_OPTIONS, limits.MAX_OPTIONS),
        )
    elif question.kind == "multiple" and count > MULTIPLE_MAX_OPTIONS:
        error(
            (*at, "options"),
            Msg(
                N_(
                    "{count} options: a multiple question has {low} to {high} (each one a toggle "
                    "button)"
                ),
                count=count,
                low=MULTIPLE_MIN_OPTIONS,
                high=MULTIPLE_MAX_OPTIONS,
            ),
        )
    if question.kind == "true_false" and tuple(question.options) != TRUE_FALSE_IDS:
        error(
            (*at, "options"),
            Msg(
                N_(
                    "a true_false question has exactly the options {ids}, in that order (found: "
                    "{found})"
                ),
                ids=" and ".join(TRUE_FALSE_IDS),
                found=", ".join(question.options) or Msg(N_("none")),
            ),
        )
    for option_id in question.options:
        if not ID.match(option_id):
            error((*at, "options", option_id),
                  Msg(N_("option id '{id}': {rule}"), id=option_id, rule=Msg(ID_RULE)))  # fmt: skip
    if question.unit is not None:
        error((*at, "unit"), Msg(N_("only a number question has a unit (this one is {kind})"),
                                 kind=question.kind))  # fmt: skip
    answer = [] if question.answer is None else question.answer  # none written: no option
    if not isinstance(answer, list):
        error((*at, "answer"),
              Msg(N_("a value or range answers only a number question: "
                     "name an option")))  # fmt: skip
        return
    for problem in _answer_problems(answer, question.kind, list(question.options)):
        error((*at, "answer"), problem)


def _answer_problems(answer: list[str], kind: str, options: list[str]) -> list[str]:
    """What is wrong with a question's answer key (empty when nothing).

    A `multiple` question lists one or more correct options, and at least one option must be
    wrong: with every option correct, selecting all would always be right, and the partial
    credit rule (a wrong pick cancels a right one) would no longer make guessing cost anything.
    """
    unknown = [a for a in answer if a not in options]
    if unknown:
        return [
            Msg(
                N_("answer '{answer}' names no option (options are: {options})"),
                answer=a,
                options=", ".join(options),
            )
            for a in unknown
        ]
    if kind != "multiple":
        if not answer:
            return [Msg(N_("no correct option: set answer to one option id"))]
        if len(answer) > 1:
            return [
                Msg(
                    N_(
                        "several correct options ({answer}): a {kind} question has exactly one; "
                        "set answer to one option id, or use kind: multiple"
                    ),
                    answer=", ".join(answer),
                    kind=kind,
                )
            ]
        return []
    if not answer:
        return [Msg(N_("no correct option: list the correct option ids, e.g. answer: [a, c]"))]
    if len(set(answer)) != len(answer):
        return [Msg(N_("an option is listed twice in answer ({answer})"), answer=", ".join(answer))]
    if len(answer) == len(options):
        return [
            Msg(
                N_(
                    "every option is correct: selecting all would always be right; make at least "
                    "one option wrong"
                )
            )
        ]
    return []


def too_long(size: int) -> str:
    return Msg(
        N_("the rendered question (prompt and options) is about {size} characters; a Telegram "
           "message holds {most}: shorten the prompt or options"),
        size=size, most=limits.MESSAGE_MAX_CHARS,
    )  # fmt: skip


def check_english(parsed: Parsed[QuizSource], at: KeyPath, text: str, sink: Problems) -> None:
    errors = text_checks.unclosed_backtick(text) + drift.placeholder(text)
    warnings = text_checks.unmarked_code(text) + links.link_problems(text)
    if not errors and not warnings:  # the usual case: no line lookup, no key string
        return
    line, key = parsed.doc.line(at), key_str(at)
    for message in errors:
        sink.error(parsed.path, line, key, message)
    for message in warnings:
        sink.warn(parsed.path, line, key, message)
