"""bot.core.answers.judge: every kind of question × every shape of answer, table-driven.

Each question is shown in a shuffled order (positions are not option indexes), so a row also
checks that a position is mapped back through the order before it is judged.
"""

from __future__ import annotations

import random

import pytest

from bot.core import answers
from bot.core.answers import Answer, Choice, Rating, Selection, Typed
from bot.core.engine import Judgement, SetJudgement, Verdict, new_attempt, score
from bot.core.kinds import NUMBER_RIGHT, NUMBER_WRONG, NumberAnswer, QuestionKind
from bot.core.models import GuidePath, Level, Option, Question, Quiz, Text

OPTIONS = tuple(Option(oid, Text.plain(oid.upper())) for oid in "abcd")
SINGLE = Question("single", Text.plain("?"), OPTIONS[:3], 1, Text.plain("b"))
TRUE_FALSE = Question(
    "tf",
    Text.plain("?"),
    (Option("true", Text.plain("True")), Option("false", Text.plain("False"))),
    0,
    Text.plain("b"),
    QuestionKind.TRUE_FALSE,
)
MULTIPLE = Question(
    "all",
    Text.plain("?"),
    OPTIONS,
    1,
    Text.plain("b"),
    QuestionKind.MULTIPLE,
    correct_set=frozenset({1, 2}),
)
NUMBER = Question(
    "n",
    Text.plain("?"),
    (),
    NUMBER_RIGHT,
    Text.plain("b"),
    QuestionKind.NUMBER,
    number=NumberAnswer(value=0.5, tolerance=0.05),
)
CARD = Question("card", Text.plain("Front"), (), 0, Text.plain("Back"), QuestionKind.FLASHCARD)
# The order each question is shown in: position -> option index.
ORDERS = {"single": (2, 1, 0), "tf": (0, 1), "all": (2, 0, 3, 1), "n": (), "card": ()}


def _judged(question: Question, answer: Answer) -> Judgement | SetJudgement | None:
    return answers.judge(question, ORDERS[question.id], 4, answer)


def _choice(position: int, option: int, correct_position: int, right: bool) -> Judgement:
    return Judgement(4, position, option, correct_position, right)


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        # single: a tap, mapped through the order; anything else has no meaning
        (SINGLE, Choice(1), _choice(1, 1, 1, True)),
        (SINGLE, Choice(0), _choice(0, 2, 1, False)),
        (SINGLE, Choice(3), None),  # no such button
        (SINGLE, Choice(-1), None),
        (SINGLE, Selection(frozenset({1})), None),
        (SINGLE, Typed(1.0), None),
        (SINGLE, Rating(2), None),
        # true/false: as single
        (TRUE_FALSE, Choice(0), _choice(0, 0, 0, True)),
        (TRUE_FALSE, Choice(1), _choice(1, 1, 0, False)),
        (TRUE_FALSE, Selection(frozenset({0})), None),
        (TRUE_FALSE, Typed(0.0), None),
        (TRUE_FALSE, Rating(0), None),
        # multiple: a set of positions, mapped to options {1, 2} = the key
        (MULTIPLE, Choice(1), None),
        (MULTIPLE, Typed(1.0), None),
        (MULTIPLE, Rating(3), None),
        (MULTIPLE, Selection(frozenset()), None),  # nothing selected
        (MULTIPLE, Selection(frozenset({4})), None),  # a position no button carried
        (MULTIPLE, Selection(frozenset({-1, 1})), None),
        # number: a typed value, recorded as the virtual option right or wrong
        (NUMBER, Typed(0.52), _choice(NUMBER_RIGHT, NUMBER_RIGHT, NUMBER_RIGHT, True)),
        (NUMBER, Typed(0.6), _choice(NUMBER_WRONG, NUMBER_WRONG, NUMBER_RIGHT, False)),
        (NUMBER, Choice(0), None),
        (NUMBER, Selection(frozenset({0})), None),
        (NUMBER, Rating(2), None),
        # flashcard: a rating, right unless Again; a tap of a position is not one
        (CARD, Rating(0), _choice(0, 0, 0, False)),
        (CARD, Rating(3), _choice(3, 3, 3, True)),
        (CARD, Rating(4), None),
        (CARD, Choice(0), None),
        (CARD, Selection(frozenset({0})), None),
        (CARD, Typed(1.0), None),
    ],
)
def test_each_kind_takes_its_own_shape_of_answer_only(
    question: Question, answer: Answer, expected: Judgement | None
) -> None:
    assert _judged(question, answer) == expected


@pytest.mark.parametrize(
    ("selected", "options", "right", "fraction"),
    [
        ({0, 3}, {2, 1}, True, 1.0),  # positions 0 and 3 show options 2 and 1: the key
        ({1, 2}, {0, 3}, False, 0.0),  # the two wrong options
        ({0}, {2}, False, 0.5),  # half the key, nothing wrong
        ({0, 1}, {2, 0}, False, 0.0),  # one right, one wrong: they cancel
        ({0, 1, 2, 3}, {0, 1, 2, 3}, False, 0.0),  # everything scores no more than nothing
    ],
)
def test_a_selection_is_judged_on_the_options_behind_its_positions(
    selected: set[int], options: set[int], right: bool, fraction: float
) -> None:
    judged = _judged(MULTIPLE, Selection(frozenset(selected)))
    assert isinstance(judged, SetJudgement)
    assert judged.selected == frozenset(options) and judged.key == frozenset({1, 2})
    assert (judged.is_correct, judged.score.fraction) == (right, fraction)


def test_positions_inverts_the_order() -> None:
    order = ORDERS["all"]
    assert answers.positions(order, frozenset({1, 2})) == frozenset({3, 0})
    assert answers.positions(order, frozenset({3})) == frozenset({2})
    assert answers.positions(order, frozenset({9})) == frozenset()  # no such option
    options = frozenset({0, 3})
    judged = _judged(MULTIPLE, Selection(answers.positions(order, options)))
    assert isinstance(judged, SetJudgement) and judged.selected == options


def test_a_tap_is_a_rating_on_a_flashcard_and_a_choice_elsewhere() -> None:
    assert answers.tap(CARD, 2) == Rating(2)
    assert answers.tap(SINGLE, 2) == Choice(2)
    assert answers.tap(None, 2) == Choice(2)  # no such question: judged closed by `apply`


QUIZ = Quiz(
    "z",
    GuidePath("g", Text.plain("G"), Text.plain("https://example.org/g")),
    Level.BEGINNER,
    Text.plain("Z"),
    Text.plain("d"),
    (MULTIPLE, NUMBER, CARD, SINGLE),
)


def test_apply_records_every_kind_in_turn_and_scores_the_attempt() -> None:
    attempt = new_attempt(1, 7, QUIZ, random.Random(3))
    key = answers.positions(attempt.orders[0], frozenset({1, 2}))
    steps: list[tuple[int, Answer, Answer]] = [  # question, its answer, a wrong shape
        (0, Selection(key), Choice(0)),
        (1, Typed(0.5), Rating(1)),
        (2, Rating(0), Choice(0)),
        (3, Choice(attempt.orders[3].index(0)), Typed(1.0)),  # a wrong option of `single`
    ]
    for index, answer, wrong in steps:
        assert answers.apply(attempt, QUIZ, index, wrong).verdict is Verdict.INVALID
        if index + 1 < len(QUIZ):
            assert answers.apply(attempt, QUIZ, index + 1, answer).verdict is Verdict.CLOSED
        outcome = answers.apply(attempt, QUIZ, index, answer)
        assert outcome.verdict is Verdict.ACCEPTED
        again = Verdict.CLOSED if outcome.finished else Verdict.ALREADY_ANSWERED  # once over
        assert answers.apply(outcome.attempt, QUIZ, index, answer).verdict is again
        attempt = outcome.attempt
    assert outcome.finished
    assert attempt.selections == ((0, frozenset({"b", "c"})),)
    final = score(QUIZ, attempt.answers, attempt.selections)
    assert (final.correct, final.total, final.missed, final.flashcards) == (2, 3, (3,), 1)
