"""Scoring modes: plain, speed (Kahoot's formula) and the streak bonus, as tables."""

from __future__ import annotations

import pytest

from bot.core.scoring import (
    AnswerFact,
    RunScore,
    ScoringMode,
    ScoringRule,
    answer_points,
    run_scores,
    streak_bonus,
)

PLAIN, SPEED = ScoringMode.PLAIN, ScoringMode.SPEED


@pytest.mark.parametrize(
    ("mode", "correct", "elapsed", "limit", "points"),
    [
        (PLAIN, True, 0, 30_000, 1),
        (PLAIN, True, 29_000, 30_000, 1),
        (PLAIN, False, 1_000, 30_000, 0),
        (SPEED, True, 0, 30_000, 1000),
        (SPEED, True, 15_000, 30_000, 750),
        (SPEED, True, 30_000, 30_000, 500),
        (SPEED, True, 45_000, 30_000, 500),  # clamped: never below half
        (SPEED, True, -5, 30_000, 1000),  # clamped: a clock skew is not a bonus
        (SPEED, True, 1_234, 10_000, 938),  # round(1000 * (1 - 0.1234 / 2)) = 938.3
        (SPEED, False, 0, 30_000, 0),
        (SPEED, True, 5_000, 0, 1000),  # no limit known: full points
    ],
)
def test_answer_points(
    mode: ScoringMode, correct: bool, elapsed: int, limit: int, points: int
) -> None:
    assert answer_points(mode, correct, elapsed, limit) == points


@pytest.mark.parametrize(
    ("mode", "fraction", "elapsed", "points"),
    [
        (SPEED, 0.5, 0, 500),  # half the set right, instantly: half of 1000
        (SPEED, 0.5, 15_000, 375),  # half of 750
        (SPEED, 2 / 3, 30_000, 333),
        (SPEED, 0.0, 0, 0),
        (PLAIN, 0.5, 0, 0),  # plain mode: a point per right answer only
    ],
)
def test_a_partly_right_selection_earns_its_share_of_speed_points(
    mode: ScoringMode, fraction: float, elapsed: int, points: int
) -> None:
    assert answer_points(mode, False, elapsed, 30_000, fraction) == points


def test_a_partly_right_selection_breaks_the_streak_but_scores() -> None:
    answers = [
        AnswerFact(1, 0, True, 0, 1.0),
        AnswerFact(1, 1, False, 0, 2.0, 0.5),
        AnswerFact(1, 2, True, 0, 3.0),
    ]
    [score] = run_scores(answers, ScoringRule(SPEED, streak_bonus=True), 30_000)
    assert (score.points, score.correct, score.answered) == (1000 + 500 + 1000, 2, 3)


@pytest.mark.parametrize(
    ("mode", "row", "bonus"),
    [
        (SPEED, 1, 0),
        (SPEED, 2, 100),
        (SPEED, 4, 300),
        (SPEED, 6, 500),
        (SPEED, 12, 500),
        (PLAIN, 1, 0),
        (PLAIN, 2, 0),
        (PLAIN, 3, 1),
        (PLAIN, 9, 1),
    ],
)
def test_streak_bonus(mode: ScoringMode, row: int, bonus: int) -> None:
    assert streak_bonus(mode, row) == bonus


def facts(user: int, *answers: tuple[int, bool, int]) -> list[AnswerFact]:
    return [AnswerFact(user, q, ok, ms, 100.0 + q) for q, ok, ms in answers]


ROW = facts(1, (0, True, 0), (1, True, 0), (2, True, 0), (3, False, 0), (4, True, 0))
GAP = facts(2, (0, True, 0), (1, True, 0), (3, True, 0))  # question 2 unanswered


@pytest.mark.parametrize(
    ("rule", "answers", "expected"),
    [
        (ScoringRule(PLAIN), ROW, RunScore(1, 4, 4, 5, 104.0)),
        (ScoringRule(PLAIN, streak_bonus=True), ROW, RunScore(1, 5, 4, 5, 104.0)),
        (ScoringRule(SPEED), ROW, RunScore(1, 4000, 4, 5, 104.0)),
        # rows 1, 2, 3 then broken, then 1: bonuses 0 + 100 + 200 + 0
        (ScoringRule(SPEED, streak_bonus=True), ROW, RunScore(1, 4300, 4, 5, 104.0)),
        # a question left unanswered breaks the row too: 0 + 100, then 0
        (ScoringRule(SPEED, streak_bonus=True), GAP, RunScore(2, 3100, 3, 3, 103.0)),
    ],
)
def test_run_scores(rule: ScoringRule, answers: list[AnswerFact], expected: RunScore) -> None:
    assert run_scores(reversed(answers), rule, 30_000) == [expected]


def test_run_scores_per_member_in_user_order() -> None:
    answers = facts(9, (0, True, 30_000)) + facts(3, (0, False, 1), (1, True, 15_000))
    assert run_scores(answers, ScoringRule(SPEED), 30_000) == [
        RunScore(3, 750, 1, 2, 101.0),
        RunScore(9, 500, 1, 1, 100.0),
    ]
