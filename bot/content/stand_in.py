"""Stand-in explanations for a converted file's questions that carry none.

quizbot shows an explanation after every answer, and the checker requires one; Aiken has no
place for it, and many GIFT files leave it out. The right option stands in ("✅ Four") and the
caller says so by line: the same rule for `quizbot content import` and a chat upload, so an
Aiken file is importable in both.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.content.formats import DraftQuiz
from bot.content.formats.draft import DraftQuestion


@dataclass(frozen=True, slots=True)
class StoodIn:
    """A question given the stand-in explanation: where it is in the input."""

    quiz_id: str
    question_id: str
    line: int


def stand_in_explanations(
    quizzes: list[DraftQuiz], langs: frozenset[str] | None = None
) -> tuple[list[DraftQuiz], list[StoodIn]]:
    """The drafts with the right option as the explanation of each keyed question without one,
    and those questions; only the drafts in `langs` when given (a translation's stand-in would
    repeat the English one, which the checker refuses: English shows its explanation)."""
    done: list[DraftQuiz] = []
    stood_in: list[StoodIn] = []
    for quiz in quizzes:
        if langs is not None and quiz.lang not in langs:
            done.append(quiz)
            continue
        questions = []
        for question in quiz.questions:
            right = _right(question)
            if not question.explanation.strip() and right:
                stood_in.append(StoodIn(quiz.id, question.id, question.line))
                question = replace(question, explanation=f"✅ {right}")
            questions.append(question)
        done.append(replace(quiz, questions=tuple(questions)))
    return done, stood_in


def _right(question: DraftQuestion) -> str:
    """The right option's text, or a number question's value ("7", "3.14 ± 0.01", "1–5"), with
    its unit; "" when the question has no key."""
    key = question.number
    if key is not None:
        unit = f" {question.unit}" if question.unit else ""
        if key.value is not None:
            spread = f" ± {_num(key.tolerance)}" if key.tolerance else ""
            return f"{_num(key.value)}{spread}{unit}"
        if key.low is not None and key.high is not None:
            return f"{_num(key.low)}–{_num(key.high)}{unit}"
        return ""
    if 0 <= question.answer < len(question.options):
        return question.options[question.answer].text
    return ""


def _num(value: float) -> str:
    """Every digit the file gave (65536, 1234567, 0.125), no trailing ".0"."""
    return format(value, ".15g")
