"""Stand-in explanations for a converted file's questions that carry none.

quizbot shows an explanation after every answer, and the checker requires one; Aiken has no
place for it, and many GIFT files leave it out. The right option stands in ("✅ Four") and the
caller says so by line: the same rule for `quizbot content import` and a chat upload, so an
Aiken file is importable in both.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.content.formats import DraftQuiz


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
            if not question.explanation.strip() and 0 <= question.answer < len(question.options):
                stood_in.append(StoodIn(quiz.id, question.id, question.line))
                right = question.options[question.answer].text
                question = replace(question, explanation=f"✅ {right}")
            questions.append(question)
        done.append(replace(quiz, questions=tuple(questions)))
    return done, stood_in
