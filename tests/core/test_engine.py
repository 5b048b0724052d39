"""Table-driven tests of the quiz rules: shuffling, answering, scoring, leaderboard."""

from __future__ import annotations

import random

import pytest

from bot.core.answers import Choice, apply
from bot.core.engine import (
    Standing,
    Status,
    Verdict,
    judge,
    leaderboard,
    new_attempt,
    option_counts,
    option_orders,
    orders_match,
    score,
)
from bot.core.models import GuidePath, Level, Option, Question, Quiz, Text


def make_quiz(n_questions: int = 3, n_options: int = 4, correct: int = 1) -> Quiz:
    guide = GuidePath("g", Text.plain("Guide"), Text.plain("https://example.org/g"))
    questions = tuple(
        Question(
            id=f"q{i}",
            prompt=Text.plain(f"Question {i}?"),
            options=tuple(Option(chr(97 + j), Text.plain(f"opt {j}")) for j in range(n_options)),
            correct=correct,
            explanation=Text.plain("because"),
        )
        for i in range(n_questions)
    )
    return Quiz("quiz", guide, Level.BEGINNER, Text.plain("T"), Text.plain("D"), questions)


def test_orders_are_permutations_and_reproducible() -> None:
    quiz = make_quiz(5, 4)
    first = option_orders(quiz, random.Random(7))
    assert first == option_orders(quiz, random.Random(7))
    assert orders_match(quiz, first)
    assert all(sorted(order) == [0, 1, 2, 3] for order in first)
    assert option_orders(quiz, random.Random(7), shuffle=False) == ((0, 1, 2, 3),) * 5


def test_orders_match_rejects_stale_orders() -> None:
    quiz = make_quiz(2, 4)
    assert not orders_match(quiz, ((0, 1, 2, 3),))
    assert not orders_match(quiz, ((0, 1, 2),) * 2)


@pytest.mark.parametrize(
    ("order", "position", "option", "correct_position", "is_correct"),
    [
        ((0, 1, 2, 3), 1, 1, 1, True),
        ((0, 1, 2, 3), 0, 0, 1, False),
        ((3, 2, 1, 0), 2, 1, 2, True),
        ((1, 0, 3, 2), 0, 1, 0, True),
        ((1, 0, 3, 2), 3, 2, 0, False),
    ],
)
def test_judge_maps_position_to_option(
    order: tuple[int, ...], position: int, option: int, correct_position: int, is_correct: bool
) -> None:
    q = make_quiz(1, 4, correct=1).questions[0]
    j = judge(q, order, 0, position)
    assert j is not None
    assert (j.option_index, j.correct_position, j.is_correct) == (
        option,
        correct_position,
        is_correct,
    )


@pytest.mark.parametrize("position", [-1, 4, 99, 10**12])
def test_judge_rejects_positions_no_button_carried(position: int) -> None:
    q = make_quiz(1, 4).questions[0]
    assert judge(q, (0, 1, 2, 3), 0, position) is None


def test_a_whole_attempt() -> None:
    quiz = make_quiz(3, 4, correct=1)
    attempt = new_attempt(1, 42, quiz, random.Random(0), shuffle=False)
    assert attempt.current == 0
    taps = [(0, 1, True), (1, 0, False), (2, 1, True)]
    for q_index, position, right in taps:
        outcome = apply(attempt, quiz, q_index, Choice(position))
        assert outcome.verdict is Verdict.ACCEPTED
        assert outcome.judgement is not None and outcome.judgement.is_correct is right
        attempt = outcome.attempt
    assert attempt.status is Status.FINISHED
    result = score(quiz, attempt.answers)
    assert (result.correct, result.total, result.missed) == (2, 3, (1,))
    assert result.ratio == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("answers", "status", "q_index", "position", "verdict"),
    [
        ((1, None, None), Status.ACTIVE, 0, 1, Verdict.ALREADY_ANSWERED),
        ((1, None, None), Status.ACTIVE, 2, 1, Verdict.CLOSED),  # a later question's button
        ((None, None, None), Status.ABANDONED, 0, 1, Verdict.CLOSED),
        ((1, 1, 1), Status.FINISHED, 2, 1, Verdict.CLOSED),
        ((None, None, None), Status.ACTIVE, 5, 0, Verdict.CLOSED),
        ((None, None, None), Status.ACTIVE, -1, 0, Verdict.CLOSED),
        ((None, None, None), Status.ACTIVE, 0, 4, Verdict.INVALID),
        ((None, None, None), Status.ACTIVE, 0, 0, Verdict.ACCEPTED),
    ],
)
def test_answer_verdicts(
    answers: tuple[int | None, ...], status: Status, q_index: int, position: int, verdict: Verdict
) -> None:
    quiz = make_quiz(3, 4)
    attempt = new_attempt(1, 42, quiz, random.Random(0))
    attempt = type(attempt)(1, 42, "quiz", attempt.orders, answers, status)
    outcome = apply(attempt, quiz, q_index, Choice(position))
    assert outcome.verdict is verdict
    if verdict is not Verdict.ACCEPTED:
        assert outcome.attempt == attempt


def test_score_counts_unanswered_as_missed() -> None:
    quiz = make_quiz(4, 4, correct=2)
    assert score(quiz, (2, None, 0, 2)).missed == (1, 2)
    assert score(quiz, (2,)).missed == (1, 2, 3)


def test_leaderboard_orders_by_correct_then_time() -> None:
    standings = [
        Standing(1, "a", 3, 3, 9000),
        Standing(2, "b", 5, 5, 20000),
        Standing(3, "c", 3, 3, 4000),
        Standing(4, "d", 0, 1, 100),
    ]
    assert [s.user_id for s in leaderboard(standings)] == [2, 3, 1, 4]
    assert len(leaderboard(standings * 5, top=10)) == 10


def test_option_counts_follow_displayed_positions() -> None:
    # order: position 0 shows option 2, position 1 shows option 0, ...
    assert option_counts((2, 0, 1, 3), [0, 0, 2, 3, 9]) == [1, 2, 0, 1]
