"""`kind: number` in content files: the checker's rules and the key the bot scores with.

A number question has no options; its `answer` is `{value, tolerance}` or `{low, high}`, with
numbers written with a "." in every language (a translation has no `answer`, so it cannot move
the key). Its optional `unit` is a translatable string (`GB` in English, `Go` in French): a
learner may type their language's unit or the English one after the number, and the reveal
shows their language's. A translation may give a unit only where the English has one.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from bot.content.problems import N_, Msg
from bot.content.schema import NumberKey, QuestionSource, QuizSource, QuizTranslation
from bot.content.yaml_nodes import KeyPath
from bot.core.kinds import NumberAnswer

Report = Callable[[KeyPath, str], None]


def number_answer(question: QuestionSource) -> NumberAnswer | None:
    """The key of a valid number question (None when the checker would refuse it)."""
    key = question.answer
    if not isinstance(key, NumberKey) or key_problems(key):
        return None
    unit = question.unit or ""
    if key.value is not None:
        return NumberAnswer(value=key.value, tolerance=key.tolerance or 0.0, unit=unit)
    return NumberAnswer(low=key.low, high=key.high, unit=unit)


_UNIT_DIGIT = N_("unit '{unit}' starts with a digit: write only the unit")


def key_problems(key: NumberKey) -> list[str]:
    """What is wrong with a number key, in the words the checker reports."""
    numbers = [n for n in (key.value, key.tolerance, key.low, key.high) if n is not None]
    if any(not math.isfinite(n) for n in numbers):
        return [Msg(N_("numbers must be finite (no inf or nan)"))]
    ranged = key.low is not None or key.high is not None
    if key.value is not None and ranged:
        return [Msg(N_("give value (with an optional tolerance) or low and high, not both"))]
    if key.value is None and not ranged:
        return [Msg(N_("no answer: give value (and tolerance) or low and high"))]
    if ranged:
        if key.tolerance is not None:
            return [Msg(N_("a range (low, high) takes no tolerance"))]
        if key.low is None or key.high is None:
            return [Msg(N_("a range needs both low and high"))]
        if key.low > key.high:
            return [Msg(N_("low ({low}) is above high ({high})"), low=f"{key.low:g}",
                        high=f"{key.high:g}")]  # fmt: skip
        return []
    if key.tolerance is not None and key.tolerance < 0:
        return [Msg(N_("tolerance {tolerance} is negative: it is a distance, 0 or more"),
                    tolerance=f"{key.tolerance:g}")]  # fmt: skip
    return []


def check_number(question: QuestionSource, at: KeyPath, error: Report) -> None:
    """A number question: no options, a valid key, a unit that is not a number."""
    if question.options:
        error((*at, "options"),
              Msg(N_("a number question has no options: the learner types the value")))  # fmt: skip
    if not isinstance(question.answer, NumberKey):
        error(
            (*at, "answer"),
            Msg(
                N_(
                    "a number question's answer is {value: ..., tolerance: ...} or "
                    "{low: ..., high: ...}"
                )
            ),
        )
        return
    for message in key_problems(question.answer):
        error((*at, "answer"), message)
    if question.unit is not None and question.unit.strip()[:1].isdigit():
        error((*at, "unit"), Msg(_UNIT_DIGIT, unit=question.unit))


def check_translated_units(source: QuizSource, tr: QuizTranslation, report: Report) -> None:
    """A translation gives a unit only where the English source has one, and never a number."""
    for qid, mine in tr.questions.items():
        english = source.questions.get(qid)
        if mine.unit is None or english is None:
            continue
        at: KeyPath = ("questions", qid, "unit")
        if english.kind != "number":
            report(at, Msg(N_("only a number question has a unit (this one is {kind})"),
                           kind=english.kind))  # fmt: skip
        elif english.unit is None:
            report(at, Msg(N_("the English question has no unit: remove it, or add one to the "
                              "English")))  # fmt: skip
        elif mine.unit.strip()[:1].isdigit():
            report(at, Msg(_UNIT_DIGIT, unit=mine.unit))
