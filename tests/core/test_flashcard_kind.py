"""The flashcard kind's rules: a rating is recorded as its index, right unless Again, never
scored; its FSRS rating is the learner's own (Again 1 .. Easy 4); a group run leaves it out."""

from __future__ import annotations

import random
from datetime import UTC

import pytest
from fsrs import Rating

from bot.core.answers import Choice, apply
from bot.core.answers import Rating as Rated
from bot.core.engine import judge_rating, new_attempt, score
from bot.core.group_run import played
from bot.core.kinds import FLASHCARD_RATINGS, QuestionKind, rating_id, score_rating
from bot.core.models import GuidePath, Level, Option, Question, Quiz, Text
from bot.core.review import after_miss, first_rating, flashcard_rating

CARD = Question(
    "card",
    Text.plain("Front"),
    (),
    0,
    Text.plain("Back"),
    kind=QuestionKind.FLASHCARD,
)
SINGLE = Question(
    "q", Text.plain("2 + 2?"), (Option("a", Text.plain("4")), Option("b", Text.plain("5"))), 0,
    Text.plain("Four."),
)  # fmt: skip
GUIDE = GuidePath("g", Text.plain("Guide"), Text.plain("https://docs.python.org/3/"))
QUIZ = Quiz("z", GUIDE, Level.BEGINNER, Text.plain("Z"), Text.plain("d"), (CARD, SINGLE))


def test_a_rating_is_right_unless_again() -> None:
    assert [score_rating(i).right for i in range(4)] == [False, True, True, True]
    with pytest.raises(ValueError):
        score_rating(4)
    assert FLASHCARD_RATINGS == ("again", "hard", "good", "easy")
    assert rating_id(2) == "rating:good"


def test_a_flashcard_has_no_options_and_no_key() -> None:
    with pytest.raises(ValueError):
        Question("x", Text.plain("F"), SINGLE.options, 0, Text.plain("B"),
                 kind=QuestionKind.FLASHCARD)  # fmt: skip


def test_judge_rating_accepts_the_four_ratings_only() -> None:
    assert judge_rating(CARD, 0, 3) is not None and judge_rating(CARD, 0, 3).is_correct
    assert not judge_rating(CARD, 0, 0).is_correct  # type: ignore[union-attr]
    assert judge_rating(CARD, 0, 4) is None and judge_rating(CARD, 0, -1) is None
    assert judge_rating(SINGLE, 0, 0) is None


def test_a_flashcard_is_counted_reviewed_not_scored() -> None:
    attempt = new_attempt(1, 7, QUIZ, random.Random(1))
    assert attempt.orders[0] == ()
    rated = apply(attempt, QUIZ, 0, Rated(0)).attempt  # Again: still not a miss of the score
    final = score(QUIZ, rated.answers)
    assert (final.correct, final.total, final.missed, final.flashcards) == (0, 1, (1,), 1)
    done = apply(rated, QUIZ, 1, Choice(rated.orders[1].index(0))).attempt
    final = score(QUIZ, done.answers)
    assert (final.correct, final.total, final.missed, final.flashcards) == (1, 1, (), 1)


def test_the_learners_rating_is_fsrs_rating() -> None:
    assert [flashcard_rating(i) for i in range(4)] == [
        Rating.Again, Rating.Hard, Rating.Good, Rating.Easy,
    ]  # fmt: skip
    again = first_rating(1, "z", "card", Rating.Again, 0.0, UTC)
    assert again == after_miss(1, "z", "card", 0.0, UTC)
    dues = [first_rating(1, "z", "card", flashcard_rating(i), 0.0, UTC).due_at for i in range(4)]
    assert dues == sorted(dues) and dues[3] > dues[0]


def test_a_group_run_leaves_flashcards_out() -> None:
    assert [q.id for q in played(QUIZ, typed=True).questions] == ["q"]
    assert [q.id for q in played(QUIZ, typed=False).questions] == ["q"]
