"""An exam or a practice set under way when the content is reloaded finishes on the questions it
started with (README, "Nothing changes under a learner's thumb"), on a real database: a
question that left the content must not end the set without results, nor leave the exam running
(a learner in a dangling exam could start no /review until /stop)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.core.exam import ExamClock
from bot.core.models import Catalog, Quiz
from bot.store.practice_sets import PracticeStore
from bot.store.reviews import ReviewStore
from bot.usecases.catalog_ref import CatalogRef
from bot.usecases.practice_outcomes import PracticeAnswered, PracticeQuestion
from bot.usecases.practice_session import PracticeSession
from tests.e2e.harness import FakeClock, shipped_catalog

QUIZ = "gradient-accumulation"
LEARNER = 21


def reloaded(old: Catalog, quiz: Quiz) -> Catalog:
    """The content once `quiz` changed, as a reload serves it (earlier versions kept)."""
    return replace(old, quizzes={**old.quizzes, quiz.id: quiz}).succeeding(old)


def right(asked: PracticeQuestion) -> int:
    return asked.order.index(asked.question.correct)


async def test_an_exam_finishes_on_its_questions_when_one_left_the_content(db) -> None:  # type: ignore[no-untyped-def]
    catalog, clock = shipped_catalog(), FakeClock()
    served = CatalogRef(catalog)
    practice = PracticeSession(served, PracticeStore(db), ReviewStore(db), clock=clock,
                               rng=random.Random(3))  # fmt: skip
    asked = await practice.start_exam(LEARNER, QUIZ, ExamClock.PER_QUESTION, 30)
    assert isinstance(asked, PracticeQuestion)
    total = asked.total
    quiz = catalog.quizzes[QUIZ]
    second = next(q for q in quiz.questions if q.id != asked.question.id)
    cut = replace(quiz, questions=tuple(q for q in quiz.questions if q is not second),
                  version="cut")  # fmt: skip
    served.current = reloaded(catalog, cut)

    answered = 0
    while True:
        outcome = await practice.answer(LEARNER, asked.set_id, asked.index, right(asked))
        assert isinstance(outcome, PracticeAnswered)
        answered += 1
        if outcome.following is None:
            break
        asked = outcome.following
    assert answered == total  # every question it started with, the one cut included
    assert (outcome.correct, outcome.missed) == (total, 0)
    assert len(outcome.marked) == total  # the results, question by question
    assert not await practice.exam_running(LEARNER)


async def test_a_question_given_an_option_mid_exam_is_asked_as_it_was_drawn(db) -> None:  # type: ignore[no-untyped-def]
    catalog, clock = shipped_catalog(), FakeClock()
    served = CatalogRef(catalog)
    practice = PracticeSession(served, PracticeStore(db), ReviewStore(db), clock=clock,
                               rng=random.Random(3))  # fmt: skip
    asked = await practice.start_exam(LEARNER, QUIZ, ExamClock.PER_QUESTION, 30)
    assert isinstance(asked, PracticeQuestion)
    quiz = catalog.quizzes[QUIZ]
    first = next(q for q in quiz.questions if q.id == asked.question.id)
    drawn = len(first.options)
    grown = replace(first, options=(*first.options, replace(first.options[0], id="late")))
    served.current = reloaded(catalog, replace(quiz, version="grown", questions=tuple(
        grown if q is first else q for q in quiz.questions)))  # fmt: skip

    outcome = await practice.answer(LEARNER, asked.set_id, 0, right(asked))
    assert isinstance(outcome, PracticeAnswered) and outcome.judgement is not None
    assert outcome.judgement.is_correct and len(outcome.asked.question.options) == drawn
