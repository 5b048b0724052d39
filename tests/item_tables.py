"""A test quiz with a deliberately wrong key, and who answers it how: shared by the use-case,
CLI and end-to-end tests of item analysis (bot/core/item_analysis.py)."""

from __future__ import annotations

from dataclasses import replace

from bot.core.models import Catalog
from tests.e2e.harness import shipped_catalog

QUIZ = "gradient-accumulation"
MISKEYED = 1  # the quiz's second question: its key is moved to a wrong option
TRUE_KEY = 2  # the shipped key of that question ("effective-batch")
WRONG_KEY = 0  # what the test content says instead
MEMBERS = 25
QUESTIONS = 4


def miskeyed_catalog(questions: int = QUESTIONS) -> Catalog:
    """The shipped quizzes, gradient-accumulation cut to `questions` questions, its second one
    keyed on option a (a wrong answer) instead of c."""
    full = shipped_catalog()
    quiz = full.quizzes[QUIZ]
    cut = list(quiz.questions[:questions])
    assert cut[MISKEYED].correct == TRUE_KEY
    cut[MISKEYED] = replace(cut[MISKEYED], correct=WRONG_KEY)
    return Catalog(full.guides, {**full.quizzes, QUIZ: replace(quiz, questions=tuple(cut))})


def choice(member: int, index: int, right_option: int) -> int:
    """The option index member k (0 weakest .. 24 strongest) chooses on question `index`: the
    others are right from k >= 7, 11, 15 in turn; on the mis-keyed one the 13 strongest choose
    the true answer and the 12 weakest the wrong key (a few of them another option)."""
    if index == MISKEYED:
        if member >= 12:
            return TRUE_KEY
        return 3 if member < 3 else WRONG_KEY
    threshold = {0: 7, 2: 11, 3: 15}[index]
    return right_option if member >= threshold else (right_option + 1) % 4
