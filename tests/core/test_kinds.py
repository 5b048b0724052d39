"""Scoring of every kind of question (bot.core.kinds), table-driven."""

from __future__ import annotations

import random

import pytest

from bot.core.answers import Choice, Selection, Typed, apply
from bot.core.engine import (
    Attempt,
    SetJudgement,
    Verdict,
    new_attempt,
    option_orders,
    score,
)
from bot.core.kinds import (
    NUMBER_RIGHT,
    NUMBER_WRONG,
    NumberAnswer,
    QuestionKind,
    Score,
    ambiguous_number,
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


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2 Go", 2.0), ("2 GB", 2.0), ("2,5Go", 2.5), ("2 To", None), ("2", 2.0)],
)
def test_parse_number_reads_the_learners_unit_or_the_english_one(
    text: str, expected: float | None
) -> None:
    assert parse_number(text, ",", ("Go", "GB")) == expected


def test_parse_number_refuses_a_reply_too_long_to_be_a_number() -> None:
    assert parse_number("1" + " " * 80) == 1.0  # spaces around are trimmed first
    assert parse_number("1" * 65) is None


def _number_quiz() -> Quiz:
    guide = GuidePath("g", Text.plain("G"), Text.plain("https://guides.quizbot.org"))
    number = Question(
        "n",
        Text.plain("?"),
        (),
        NUMBER_RIGHT,
        Text.plain("b"),
        QuestionKind.NUMBER,
        number=NumberAnswer(value=0.5, tolerance=0.05),
    )
    return Quiz(
        "z",
        guide,
        Level.BEGINNER,
        Text.plain("Z"),
        Text.plain("d"),
        (number, _question("q", QuestionKind.SINGLE, 2)),
    )


def test_a_number_question_has_a_key_and_no_options() -> None:
    with pytest.raises(ValueError):
        Question("n", Text.plain("?"), (), 0, Text.plain("b"), QuestionKind.NUMBER)
    with pytest.raises(ValueError):
        Question(
            "n",
            Text.plain("?"),
            (Option("a", Text.plain("1")),),
            0,
            Text.plain("b"),
            QuestionKind.NUMBER,
            number=NumberAnswer(value=1),
        )


@pytest.mark.parametrize(("typed", "right"), [(0.5, True), (0.55, True), (0.56, False)])
def test_a_typed_value_is_recorded_as_right_or_wrong_and_scored(typed: float, right: bool) -> None:
    quiz = _number_quiz()
    attempt = new_attempt(1, 7, quiz, random.Random(1))
    assert attempt.orders[0] == ()  # nothing to shuffle
    assert apply(attempt, quiz, 0, Choice(0)).verdict is Verdict.INVALID  # no button to tap
    outcome = apply(attempt, quiz, 0, Typed(typed))
    assert outcome.verdict is Verdict.ACCEPTED and outcome.judgement is not None
    assert outcome.judgement.is_correct is right
    assert outcome.attempt.answers[0] == (NUMBER_RIGHT if right else NUMBER_WRONG)
    assert score(quiz, outcome.attempt.answers).missed == (() if right else (0,)) + (1,)
    assert apply(outcome.attempt, quiz, 0, Typed(0.5)).verdict is Verdict.ALREADY_ANSWERED


def test_a_typed_value_for_a_question_not_asked_changes_nothing() -> None:
    quiz = _number_quiz()
    attempt = new_attempt(1, 7, quiz, random.Random(1))
    assert apply(attempt, quiz, 1, Typed(0.5)).verdict is Verdict.CLOSED  # not the current one
    assert apply(attempt, quiz, 5, Typed(0.5)).verdict is Verdict.CLOSED
    answered = apply(attempt, quiz, 0, Typed(0.5)).attempt
    assert apply(answered, quiz, 1, Typed(0.5)).verdict is Verdict.INVALID  # not a number one


def _multiple_quiz() -> Quiz:
    guide = GuidePath("g", Text.plain("Guide"), Text.plain("https://example.org/g"))
    options = tuple(Option(oid, Text.plain(oid.upper())) for oid in "abcd")
    single = Question("one", Text.plain("One?"), options[:2], 0, Text.plain("because"))
    select_all = Question(
        "all",
        Text.plain("All?"),
        options,
        1,
        Text.plain("because"),
        kind=QuestionKind.MULTIPLE,
        correct_set=frozenset({1, 2}),
    )
    return Quiz(
        "quiz", guide, Level.BEGINNER, Text.plain("T"), Text.plain("D"), (select_all, single)
    )


def _submitted(attempt: Attempt, index: int, options: frozenset[int]) -> Selection:
    """Submit with the buttons of `options` selected, as displayed in the attempt's order (an
    option no button carries: a position past the buttons)."""
    order = attempt.orders[index]
    return Selection(frozenset(order.index(o) if o in order else len(order) + o for o in options))


def test_a_multiple_question_is_answered_by_a_submitted_set_only() -> None:
    quiz = _multiple_quiz()
    attempt = new_attempt(1, 7, quiz, random.Random(1))
    # A single tap (a forged or stale answer button) cannot answer it.
    assert apply(attempt, quiz, 0, Choice(1)).verdict is Verdict.INVALID
    assert apply(attempt, quiz, 0, _submitted(attempt, 0, frozenset())).verdict is Verdict.INVALID
    assert (
        apply(attempt, quiz, 0, _submitted(attempt, 0, frozenset({9}))).verdict is Verdict.INVALID
    )
    outcome = apply(attempt, quiz, 0, _submitted(attempt, 0, frozenset({1, 3})))
    assert outcome.verdict is Verdict.ACCEPTED
    judgement = outcome.judgement
    assert isinstance(judgement, SetJudgement)
    assert not judgement.is_correct and judgement.score.fraction == 0.0  # 1 hit - 1 wrong
    assert outcome.attempt.selections == ((0, frozenset({"b", "d"})),)
    assert outcome.attempt.current == 1
    assert apply(
        outcome.attempt, quiz, 0, _submitted(outcome.attempt, 0, frozenset({1, 2}))
    ).verdict is (Verdict.ALREADY_ANSWERED)
    # A set only answers a multiple question.
    assert (
        apply(outcome.attempt, quiz, 1, _submitted(outcome.attempt, 1, frozenset({0}))).verdict
        is Verdict.INVALID
    )


@pytest.mark.parametrize(
    ("selected", "right"),
    [(frozenset({"b", "c"}), 1), (frozenset({"b"}), 0), (frozenset({"b", "c", "d"}), 0)],
)
def test_a_quiz_score_counts_a_multiple_question_right_for_the_exact_set(
    selected: frozenset[str], right: int
) -> None:
    quiz = _multiple_quiz()
    result = score(quiz, [1, 0], [(0, selected)])
    assert result.correct == right + 1
    assert (0 in result.missed) is (right == 0)


@pytest.mark.parametrize(
    ("text", "separator", "ambiguous"),
    [
        ("1,000", ".", True),  # a thousand, or one with three decimals?
        ("12,500 GB", ".", True),
        ("-2,500", ".", True),
        ("1,000,000", ".", True),
        ("1.000", ",", True),  # the French learner's point: the same doubt
        ("1,000", ",", False),  # the French decimal comma: 1.0, read
        ("0,125", ".", False),  # no thousands start with 0: a decimal comma, refused plainly
        ("1,5", ".", False),
        ("1000", ".", False),
        ("1.000", ".", False),  # the English decimal point: 1.0, read
        ("sixty", ".", False),
    ],
)
def test_a_thousands_separator_that_could_be_a_decimal_mark_is_ambiguous(
    text: str, separator: str, ambiguous: bool
) -> None:
    """Issue 28 #26: '1,000' gets its own message ('ambiguous'), not 'no number there'."""
    assert ambiguous_number(text, separator, "GB") is ambiguous
    if ambiguous:
        assert parse_number(text, separator, "GB") is None
