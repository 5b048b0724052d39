"""Review and practice rounds in the store, on SQLite and PostgreSQL: a practice answer moves no
question's FSRS state and writes no review log; a review answer moves its question and its round
together, once; a stopped round, another learner or a replayed tap changes nothing."""

from __future__ import annotations

import random
from typing import Any

from bot.store import Database
from bot.store.review_sessions import RoundStore
from bot.store.reviews import ReviewStore
from bot.usecases import review_rounds as rr
from bot.usecases.spaced_review import SpacedReview
from tests.e2e.harness import shipped_catalog
from tests.store.progress_kit import DAY, NOW, QUIZ, Clock, group_answer

SCHEDULE = "SELECT id, stability, difficulty, due_at, last_seen_at FROM review_items ORDER BY id"


def rounds_of(db: Database, clock: Clock) -> rr.ReviewRounds:
    review = SpacedReview(
        shipped_catalog(), ReviewStore(db), timezone="Africa/Dakar", clock=clock,
        rng=random.Random(1),
    )  # fmt: skip
    return rr.ReviewRounds(review, RoundStore(db), clock=clock)


async def missed(db: Database, user: int, *indexes: int) -> None:
    quiz = shipped_catalog().quizzes[QUIZ]
    for n, index in enumerate(indexes):
        wrong = (quiz.questions[index].correct + 1) % 4
        await group_answer(db, -100 - n, user, index, wrong, False, NOW)


def right_position(card: rr.RoundCard) -> int:
    return card.order.index(card.question.correct)


def order(card: rr.RoundCard) -> str:
    return "".join(map(str, card.order))


async def test_a_practice_round_leaves_the_schedule_alone(db: Database) -> None:
    clock = Clock()
    rounds = rounds_of(db, clock)
    await missed(db, 5, 0, 2)
    nothing = await rounds.start_review(5)
    assert nothing == rr.NothingDue(5, NOW - NOW % DAY + DAY, 2)  # due at midnight UTC: Dakar
    schedule = await db.rows(SCHEDULE)  # type: ignore[attr-defined]

    assert await rounds.start_practice(6, 5) == rr.NotYours()  # the button was made for 5
    card = await rounds.start_practice(5, 5)
    assert isinstance(card, rr.RoundCard) and card.practice and (card.index, card.total) == (0, 2)
    done = await rounds.answer(5, card.round_id, 0, 0, order(card), right_position(card))
    assert isinstance(done, rr.CardAnswered) and done.judgement.is_correct and not done.last
    again = await rounds.answer(5, card.round_id, 0, 0, order(card), right_position(card))
    assert again == rr.AlreadyAnswered()
    assert await rounds.answer(6, card.round_id, 0, 0, order(card), 0) == rr.NotYours()

    second = await rounds.next(5, card.round_id, 1)
    assert isinstance(second, rr.RoundCard) and (second.index, second.total) == (1, 2)
    assert await rounds.next(5, card.round_id, 1) == rr.AlreadyShown()  # a double tap
    wrong = (right_position(second) + 1) % len(second.order)
    done = await rounds.answer(5, card.round_id, 1, 0, order(second), wrong)
    assert isinstance(done, rr.CardAnswered) and done.last and not done.judgement.is_correct
    summary = await rounds.next(5, card.round_id, 2)
    assert isinstance(summary, rr.RoundSummary) and summary.practice
    assert (summary.answered, summary.correct, summary.due_now) == (2, 1, 0)

    assert await db.rows(SCHEDULE) == schedule  # type: ignore[attr-defined]
    assert await db.rows("SELECT count(*) FROM review_log") == [(0,)]  # type: ignore[attr-defined]


async def test_a_review_round_counts_k_of_n_and_stop_closes_it(db: Database) -> None:
    clock = Clock()
    rounds = rounds_of(db, clock)
    await missed(db, 5, 0, 1, 3)
    clock.now += DAY
    card = await rounds.start_review(5)
    assert isinstance(card, rr.RoundCard) and not card.practice
    assert (card.index, card.total) == (0, 3)
    done = await rounds.answer(5, card.round_id, 0, card.item_id, order(card), right_position(card))
    assert isinstance(done, rr.CardAnswered) and done.after is not None
    assert done.after.due_at > NOW + 2 * DAY  # answered right: out beyond tomorrow
    second = await rounds.next(5, card.round_id, 1)
    assert isinstance(second, rr.RoundCard) and (second.index, second.total) == (1, 3)

    stopped = await rounds.stop(5)
    assert isinstance(stopped, rr.Stopped) and not stopped.practice
    assert (stopped.answered, stopped.total, stopped.correct) == (1, 3, 1)
    assert await rounds.stop(5) == rr.NothingOpen()
    schedule = await db.rows(SCHEDULE)  # type: ignore[attr-defined]
    tap = await rounds.answer(5, card.round_id, 1, second.item_id, order(second), 0)
    assert tap == rr.RoundOver()
    assert await rounds.next(5, card.round_id, 1) == rr.RoundOver()
    assert await db.rows(SCHEDULE) == schedule  # type: ignore[attr-defined]

    # A new round starts from what is due now: two left.
    fresh = await rounds.start_review(5)
    assert isinstance(fresh, rr.RoundCard) and (fresh.index, fresh.total) == (0, 2)
    assert fresh.round_id != card.round_id


async def test_stop_finds_the_newest_card_whatever_order_the_sends_returned_in(
    db: Database,
) -> None:
    """Updates of one chat are handled concurrently: a card's send can return after the message
    answered from it (its explanation, with Next) was recorded. /stop must find the newer one;
    a card recorded after /stop is to be stripped by its sender (False)."""
    clock = Clock()
    rounds = rounds_of(db, clock)
    await missed(db, 7, 0)
    card = await rounds.start_practice(7, 7)
    assert isinstance(card, rr.RoundCard)
    assert await rounds.card_sent(card.round_id, 21)  # the explanation's message, recorded first
    assert await rounds.card_sent(card.round_id, 20)  # the card's own send, returned late
    stopped = await rounds.stop(7)
    assert isinstance(stopped, rr.Stopped) and stopped.message_id == 21
    assert not await rounds.card_sent(card.round_id, 22)  # after /stop: its sender strips it


async def test_a_card_shown_before_rounds_kept_its_order_is_read_with_its_buttons(
    db: Database,
) -> None:
    """A card shown since rounds keep its order is read with that order, whatever its button
    says (tests/e2e/test_forged_answer_keys.py); one shown before (no order kept) is read with
    the order its buttons carry: data already sent keeps its meaning after a deploy."""
    clock = Clock()
    rounds = rounds_of(db, clock)
    await missed(db, 5, 0, 2)
    card = await rounds.start_practice(5, 5)
    assert isinstance(card, rr.RoundCard) and card.order_kept
    # An order the card was not shown in, putting the right option at its button's place.
    at = (right_position(card) + 1) % len(card.order)
    others = [i for i in range(len(card.order)) if i != card.question.correct]
    forged = "".join(map(str, [*others[:at], card.question.correct, *others[at:]]))
    done = await rounds.answer(5, card.round_id, 0, 0, forged, at)
    assert isinstance(done, rr.CardAnswered) and not done.judgement.is_correct  # as shown

    second = await rounds.next(5, card.round_id, 1)
    assert isinstance(second, rr.RoundCard)

    async def forget_order(conn: Any) -> None:
        await conn.execute("UPDATE review_sessions SET card_order = NULL")

    await db.write(forget_order)
    assert await rounds.answer(5, card.round_id, 1, 0, "0", 0) == rr.NotYours()
    done = await rounds.answer(5, card.round_id, 1, 0, order(second), right_position(second))
    assert isinstance(done, rr.CardAnswered) and done.judgement.is_correct
