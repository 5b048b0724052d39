"""A practice round of missed questions under way when the content is reloaded, on SQLite and
PostgreSQL: a question that left the content is not asked, and the round goes on to the
questions after it instead of ending at it with "1 of 3" answered."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.store import Database
from bot.store.review_sessions import RoundStore
from bot.store.reviews import ReviewStore
from bot.usecases import review_rounds as rr
from bot.usecases.catalog_ref import CatalogRef
from bot.usecases.spaced_review import SpacedReview
from tests.e2e.harness import shipped_catalog
from tests.store.progress_kit import QUIZ, Clock, group_answer


def order(card: rr.RoundCard) -> str:
    return "".join(map(str, card.order))


async def test_a_practice_round_skips_a_question_that_left_the_content(db: Database) -> None:
    clock, catalog = Clock(), shipped_catalog()
    served = CatalogRef(catalog)
    review = SpacedReview(served, ReviewStore(db), timezone="Africa/Dakar", clock=clock,
                          rng=random.Random(1))  # fmt: skip
    rounds = rr.ReviewRounds(review, RoundStore(db), clock=clock)
    quiz = catalog.quizzes[QUIZ]
    for n, index in enumerate((0, 1, 2)):
        wrong = (quiz.questions[index].correct + 1) % 4
        await group_answer(db, -100 - n, 5, index, wrong, False, clock.now)

    card = await rounds.start_practice(5, 5)
    assert isinstance(card, rr.RoundCard) and card.total == 3
    asked = {card.question.id}
    # A reload takes away the question the round asks second (a practice round's are fixed).
    stored = await rounds.rounds.get(card.round_id)
    assert stored is not None
    gone = stored.questions[1].question_id
    cut = replace(quiz, questions=tuple(q for q in quiz.questions if q.id != gone), version="cut")
    served.current = replace(catalog, quizzes={**catalog.quizzes, QUIZ: cut}).succeeding(catalog)

    answered = 0
    while isinstance(card, rr.RoundCard):
        done = await rounds.answer(5, card.round_id, card.index, 0, order(card), 0)
        assert isinstance(done, rr.CardAnswered)
        answered += 1
        card = await rounds.next(5, card.round_id, card.index + 1)
        if isinstance(card, rr.RoundCard):
            asked.add(card.question.id)
    assert isinstance(card, rr.RoundSummary)
    assert gone not in asked and len(asked) == 2 == answered == card.answered
