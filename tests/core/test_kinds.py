"""Scoring of every kind of question (bot.core.kinds), table-driven."""

from __future__ import annotations

import random

import pytest

from bot.core.engine import option_orders
from bot.core.kinds import (
    NumberAnswer,
    QuestionKind,
    Score,
    parse_number,
    score_choice,
    score_multiple,
    score_number,
)
from bot.core.models import GuidePath, Level, Option, Question, Quiz, Text


@pytest.mark.parametrize(
    ("chosen", "correct", "expected"),
    [(0, 0, Score(True, 1.0)), (1, 0, Score(False, 0.0)), (1, 1, Score(True, 1.0))],
)
def test_single_and_true_false_are_all_or_nothing(
    chosen: int, correct: int, expected: Score
) -> None:
    assert score_choice(chosen, correct) == expected


@pytest.mark.parametrize(
    ("selected", "correct", "right", "fraction"),
    [
        ({0, 2}, {0, 2}, True, 1.0),  # the exact set
        ({0}, {0, 2}, False, 0.5),  # half the correct ones, nothing wrong
        ({0, 1}, {0, 2}, False, 0.0),  # one right, one wrong: they cancel
        ({0, 1, 2, 3}, {0, 2}, False, 0.0),  # everything: no better than nothing
        (set(), {0, 2}, False, 0.0),
        ({1}, {0, 2}, False, 0.0),  # floored at zero, never negative
        ({0, 1, 2}, {0, 1, 2}, True, 1.0),
        ({0, 1}, {0, 1, 2}, False, 2 / 3),
    ],
)
def test_multiple_partial_credit(
    selected: set[int], correct: set[int], right: bool, fraction: float
) -> None:
    score = score_multiple(selected, correct)
    assert score.right is right
    assert score.fraction == pytest.approx(fraction)


def test_multiple_needs_a_correct_option() -> None:
    with pytest.raises(ValueError):
        score_multiple({0}, set())


@pytest.mark.parametrize(
    ("typed", "key", "right"),
    [
        (8.0, NumberAnswer(value=8), True),
        (8.1, NumberAnswer(value=8), False),
        (8.1, NumberAnswer(value=8, tolerance=0.1), True),  # the edge is inside
        (7.85, NumberAnswer(value=8, tolerance=0.1), False),
        (0.1 + 0.2, NumberAnswer(value=0.3), True),  # float representation never fails anyone
        (32, NumberAnswer(low=30, high=34), True),
        (30, NumberAnswer(low=30, high=34), True),
        (34.01, NumberAnswer(low=30, high=34), False),
        (None, NumberAnswer(value=8), False),  # unreadable reply
        (float("nan"), NumberAnswer(low=0, high=1), False),
    ],
)
def test_number_tolerance_and_range(typed: float | None, key: NumberAnswer, right: bool) -> None:
    assert score_number(typed, key).right is right


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"value": 1, "low": 0, "high": 2}, {"low": 3, "high": 2}, {"value": 1, "tolerance": -1}],
)
def test_number_key_must_be_value_or_range(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        NumberAnswer(**kwargs)


@pytest.mark.parametrize(
    ("text", "separator", "unit", "expected"),
    [
        ("0,5", ",", "", 0.5),  # French decimal comma
        ("0.5", ",", "", 0.5),  # the point is always read
        ("0,5", ".", "", None),  # English: a comma is not a decimal mark
        ("1,000", ".", "", None),  # ambiguous in English: refused, not read as 1
        ("1 000,25", ",", "", 1000.25),  # thin no-break space groups thousands
        ("1\u202f000", ",", "", 1000.0),
        (" 32 ", ".", "", 32.0),
        ("-2,5", ",", "", -2.5),
        ("12 GB", ".", "GB", 12.0),  # the unit may follow
        ("12gb", ".", "GB", 12.0),
        ("12 MB", ".", "GB", None),
        (",5", ",", "", 0.5),
        ("", ".", "", None),
        ("abc", ".", "", None),
        ("1 0", ".", "", None),
        ("1e9", ".", "", None),
        ("--1", ".", "", None),
    ],
)
def test_parse_number_reads_the_locale_separator(
    text: str, separator: str, unit: str, expected: float | None
) -> None:
    assert parse_number(text, separator, unit) == expected


def _question(qid: str, kind: QuestionKind, count: int) -> Question:
    options = tuple(Option(f"o{i}", Text.plain(f"option {i}")) for i in range(count))
    return Question(qid, Text.plain("?"), options, 0, Text.plain("because"), kind)


def test_true_false_options_keep_their_order_when_others_are_shuffled() -> None:
    guide = GuidePath("g", Text.plain("G"), Text.plain("https://guides.quizbot.org"))
    questions = tuple(_question(f"q{i}", QuestionKind.SINGLE, 6) for i in range(5))
    tf = tuple(_question(f"t{i}", QuestionKind.TRUE_FALSE, 2) for i in range(20))
    quiz = Quiz("z", guide, Level.BEGINNER, Text.plain("Z"), Text.plain("d"), questions + tf)
    orders = option_orders(quiz, random.Random(7))
    assert all(order == (0, 1) for order in orders[5:])
    assert any(order != tuple(range(6)) for order in orders[:5])
