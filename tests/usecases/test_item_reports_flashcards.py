"""Item analysis leaves flashcards out: a self-rating is no answer with a key, so it is neither
an item nor part of anyone's score (the other questions keep their positions)."""

from __future__ import annotations

from dataclasses import replace

from bot.core.kinds import QuestionKind
from bot.core.models import Catalog, Question, Text
from bot.usecases.item_reports import analysed
from tests.item_tables import QUIZ, miskeyed_catalog

CARD = Question("card", Text.plain("Front"), (), 0, Text.plain("Back"), kind=QuestionKind.FLASHCARD)


def with_card_first() -> Catalog:
    catalog = miskeyed_catalog()
    quiz = catalog.quizzes[QUIZ]
    return Catalog(
        catalog.guides, {**catalog.quizzes, QUIZ: replace(quiz, questions=(CARD, *quiz.questions))}
    )


def test_flashcard_ratings_are_no_item_and_no_score() -> None:
    catalog = with_card_first()
    first = catalog.quizzes[QUIZ].questions[1]
    rows = []
    for k in range(25):
        # The card rated "easy" (recorded right) by the weak half only: counted, it would
        # lower the other question's discrimination.
        rows.append((QUIZ, "card", k, 1, k < 12, "rating:easy"))
        right = k >= 12
        chosen = first.options[first.correct if right else (first.correct + 1) % 4].id
        rows.append((QUIZ, first.id, k, 1, right, chosen))
        rows.append((QUIZ, catalog.quizzes[QUIZ].questions[3].id, k, 1, right, "a"))
    (quiz,) = analysed(catalog, rows)
    assert [i.question.id for i in quiz.items] == [first.id, catalog.quizzes[QUIZ].questions[3].id]
    assert quiz.items[0].position == 1  # where it sits in the quiz, the card before it
    assert quiz.items[0].analysis.point_biserial == 1.0  # the card's ratings are in no score
