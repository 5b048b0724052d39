"""The private quiz use case on a real database file: every tap's outcome, without Telegram.

Ownership, "next or result" and repeats are decided here; the handlers only render these."""

from __future__ import annotations

import random

from bot.core.kinds import QuestionKind
from bot.core.models import Quiz
from bot.store import Database, LearnerStore
from bot.store.selections import SelectionStore
from bot.usecases import private_answers as ps
from bot.usecases import private_quiz as pq
from bot.usecases import private_replies as ta
from tests.e2e.harness import FakeClock, shipped_catalog, typed_for

QUIZ = "gradient-checkpointing"
OWNER, OTHER = 11, 12


def right_position(quiz: Quiz, shown: pq.ShowQuestion) -> int:
    order = shown.attempt.orders[shown.index]
    return order.index(quiz.questions[shown.index].correct)


async def select_all(
    picks: ps.PrivateSelections, quiz: Quiz, shown: pq.ShowQuestion
) -> ps.SubmitOutcome:
    """A select-all question: refused for others and when empty, then every right option."""
    attempt_id, index, order = shown.attempt.id, shown.index, shown.attempt.orders[shown.index]
    assert await picks.toggle(OTHER, attempt_id, index, 0) == pq.NotYours()
    assert await picks.submit(OTHER, attempt_id, index, "en") == pq.NotYours()
    assert await picks.submit(OWNER, attempt_id, index, "en") == ps.NothingSelected()
    assert await picks.toggle(OWNER, attempt_id, index + 1, 0) == pq.Closed()  # not current
    for position, option in enumerate(order):
        if option in quiz.questions[index].key:
            toggled = await picks.toggle(OWNER, attempt_id, index, position)
            assert isinstance(toggled, ps.Toggled) and option in toggled.selected
    return await picks.submit(OWNER, attempt_id, index, "en")


async def test_a_whole_attempt_through_its_outcomes(db: Database) -> None:
    catalog = shipped_catalog()
    use = pq.PrivateQuiz(catalog, LearnerStore(db), clock=FakeClock(), rng=random.Random(3))
    picks = ps.PrivateSelections(use, SelectionStore(db), clock=FakeClock())
    assert await use.start(OWNER, "no-such-quiz") == pq.UnknownQuiz()
    shown = await use.start(OWNER, QUIZ)
    assert isinstance(shown, pq.ShowQuestion) and shown.index == 0
    quiz, attempt_id = shown.quiz, shown.attempt.id

    # Someone else's attempt: every kind of tap is refused, nothing changes.
    assert await use.answer(OTHER, attempt_id, 0, 0, "en") == pq.NotYours()
    assert await use.next(OTHER, attempt_id, 1) == pq.NotYours()
    assert await use.abandon(OTHER, attempt_id) == pq.NotYours()
    assert await use.mistakes(OTHER, attempt_id) == pq.NotYours()
    assert await use.resume(OTHER, attempt_id) == pq.NotYours()

    for index in range(len(quiz)):
        if index:
            assert await use.next(OWNER, attempt_id, index + 1) == pq.Closed()  # not yet
            step = await use.next(OWNER, attempt_id, index)
            assert isinstance(step, pq.ShowQuestion) and step.index == index
            assert await use.next(OWNER, attempt_id, index) == pq.AlreadyShown()
            shown = step
        last = index == len(quiz) - 1
        if quiz.questions[index].kind is QuestionKind.MULTIPLE:
            answered = await select_all(picks, quiz, shown)
            again = await picks.submit(OWNER, attempt_id, index, "en")
        elif quiz.questions[index].typed:  # a number question: no tap answers it; a reply does
            assert await use.answer(OWNER, attempt_id, index, 0, "en") == pq.Closed()
            typed = ta.TypedAnswers(use)
            await typed.asked(attempt_id, ta.Asked(index, 1000 + index))
            value = typed_for(quiz.questions[index])
            reply = await typed.answer(OWNER, value, None, "en", ".")
            assert isinstance(reply, ta.TypedAnswered) and reply.right and reply.typed == value
            assert (reply.score is not None) == last
            if last:  # a select-all answer counts by its submitted set: only question 0 missed
                assert reply.score is not None and reply.score.missed == (0,)
            again_typed = await typed.answer(OWNER, value, None, "en", ".")
            assert isinstance(again_typed, ta.NotAsked | ta.OldQuestion)
            continue
        else:
            position = right_position(quiz, shown)
            position = position if index else (position + 1) % 4
            answered = await use.answer(OWNER, attempt_id, index, position, "en")
            again = await use.answer(OWNER, attempt_id, index, position, "en")
        assert isinstance(answered, pq.Answered)
        assert answered.judgement.is_correct == (index > 0)
        assert (answered.score is not None) == last
        # Once the last answer finished the attempt, every button of it is closed.
        assert again == (pq.Closed() if last else pq.AlreadyAnswered())

    result = await use.next(OWNER, attempt_id, len(quiz))
    assert isinstance(result, pq.ShowResult) and result.score.missed == (0,)
    assert await use.next(OWNER, attempt_id, len(quiz)) == pq.AlreadyShown()
    mistakes = await use.mistakes(OWNER, attempt_id)
    assert isinstance(mistakes, pq.Mistakes) and mistakes.missed == (0,)
    assert await use.abandon(OWNER, attempt_id) == pq.Closed()  # finished: nothing to stop
    assert await use.answer(OWNER, attempt_id, 0, 0, "en") == pq.Closed()


async def test_resume_and_abandon_a_running_attempt(db: Database) -> None:
    use = pq.PrivateQuiz(shipped_catalog(), LearnerStore(db), clock=FakeClock())
    first = await use.start(OWNER, QUIZ)
    assert isinstance(first, pq.ShowQuestion)
    second = await use.start(OWNER, QUIZ)  # a new start abandons the first
    assert isinstance(second, pq.ShowQuestion)
    assert await use.resume(OWNER, first.attempt.id) == pq.Closed()
    resumed = await use.resume(OWNER, second.attempt.id)
    assert isinstance(resumed, pq.ShowQuestion) and resumed.index == 0
    assert await use.abandon(OWNER, second.attempt.id) == pq.Abandoned()
    assert await use.running(OWNER) is None
    assert await use.answer(OWNER, second.attempt.id, 0, 0, "en") == pq.Closed()
    assert not await use.stop(OWNER)
