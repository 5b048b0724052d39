"""The review queue in the store: every wrong answer reaches it through the trigger-fed inbox
(private or group, whoever wrote it), once; stale review taps change nothing."""

from __future__ import annotations

import random
from datetime import date
from zoneinfo import ZoneInfo

from fsrs import Rating

from bot.core.engine import option_orders
from bot.core.models import Quiz
from bot.core.review import after_miss, start_of_day
from bot.store import Database, LearnerStore
from bot.store.reviews import ReviewStore
from bot.usecases.spaced_review import SpacedReview
from tests.e2e.harness import shipped_catalog
from tests.store.progress_kit import DAY, NOW, QUIZ, Clock, group_answer

# What a first miss anywhere leaves in the queue: FSRS's state after Again on a new card.
FIRST_MISS = after_miss(0, "q", "q1", NOW, ZoneInfo("UTC"))


def service(db: Database, clock: Clock) -> SpacedReview:
    return SpacedReview(
        shipped_catalog(),
        ReviewStore(db),
        timezone="Africa/Dakar",
        clock=clock,
        rng=random.Random(1),
    )


def ids(quiz: Quiz, index: int, option: int) -> dict[str, str]:
    question = quiz.questions[index]
    return {"question_id": question.id, "option_id": question.options[option].id}


async def test_private_and_group_misses_join_the_queue_once(db: Database) -> None:
    clock = Clock()
    progress = service(db, clock)
    learners = LearnerStore(db)
    quiz = shipped_catalog().quizzes[QUIZ]
    attempt = await learners.start_attempt(5, QUIZ, option_orders(quiz, random.Random(0)), NOW)
    loaded = await learners.attempt(attempt)
    assert loaded is not None
    wrong = (quiz.questions[0].correct + 1) % 4
    await learners.record_answer(loaded, 0, wrong, False, "en", NOW, **ids(quiz, 0, wrong))
    right = quiz.questions[1].correct
    await learners.record_answer(loaded, 1, right, True, "en", NOW, **ids(quiz, 1, right))
    run = await group_answer(db, -100, 5, 2, (quiz.questions[2].correct + 1) % 4, False, NOW)
    await group_answer(db, -100, 6, 3, quiz.questions[3].correct, True, NOW)

    assert await progress.sync() == 2
    assert await progress.sync() == 0  # the inbox is drained: nothing counted twice
    items = await progress.store.items(5)
    assert {i.question_id for i in items} == {quiz.questions[0].id, quiz.questions[2].id}
    assert all(i.stability == FIRST_MISS.stability for i in items)  # FSRS's Again, new card
    assert await progress.store.items(6) == []
    assert await progress.due_count(5) == 0
    clock.now += DAY
    assert await progress.due_count(5) == 2
    # The group run's misses: member 5 never started the bot privately, so nobody to tell.
    assert await progress.group_misses(run) == {}


async def test_a_stale_tap_changes_nothing_and_late_misses_do_not_undo_reviews(
    db: Database,
) -> None:
    clock = Clock()
    progress = service(db, clock)
    quiz = shipped_catalog().quizzes[QUIZ]
    await group_answer(db, -100, 5, 0, (quiz.questions[0].correct + 1) % 4, False, NOW)
    clock.now += DAY
    card = await progress.next_card(5)
    assert card is not None and card.item.stability == FIRST_MISS.stability
    order = "".join(map(str, card.order))
    right = card.order.index(card.question.correct)
    done = await progress.answer(5, card.item_id, order, right)
    assert done is not None and done.rating is Rating.Good  # untimed: Good
    assert done.after.due_at > card.item.due_at and done.after.stability > card.item.stability
    assert await progress.answer(5, card.item_id, order, right) is None  # double tap
    assert await progress.answer(6, card.item_id, order, right) is None  # someone else's
    assert await progress.next_card(5) is None
    # An old miss arriving late (drained after the review) does not undo the review.
    await progress.store.ingest([card.item], [])
    (still,) = await progress.store.items(5)
    assert still == done.after


async def test_each_learners_misses_fall_due_on_their_own_next_day(db: Database) -> None:
    """One group run, two members in their own zones (their /timezone, through `zone_of`), a
    third with none (the service's zone): each miss is due when that member's next day begins,
    and a review answered moves it by that member's days too."""
    clock = Clock()
    progress = service(db, clock)  # the bot's zone: Africa/Dakar (UTC all year)
    chosen = {5: "America/New_York", 6: "Pacific/Auckland"}

    async def zone_of(user_id: int) -> str:
        return chosen.get(user_id, "Africa/Dakar")

    progress.zone_of = zone_of
    quiz = shipped_catalog().quizzes[QUIZ]
    for user in (5, 6, 7):  # NOW: 13:33 on Sep 21 in UTC, 09:33 in New York, 01:33 (22nd) NZ
        await group_answer(db, -100, user, 0, (quiz.questions[0].correct + 1) % 4, False, NOW)
    await progress.sync()
    due = {u: (await progress.store.items(u))[0].due_at for u in (5, 6, 7)}
    assert due[5] == start_of_day(date(2026, 9, 22), ZoneInfo("America/New_York"))
    assert due[6] == start_of_day(date(2026, 9, 23), ZoneInfo("Pacific/Auckland"))
    assert due[7] == start_of_day(date(2026, 9, 22), ZoneInfo("Africa/Dakar"))
    # 00:30 UTC on Sep 22: a new day in Dakar, still the evening of the 21st in New York.
    clock.now = start_of_day(date(2026, 9, 22), ZoneInfo("UTC")) + 1800
    assert [await progress.due_count(u) for u in (5, 6, 7)] == [0, 0, 1]
    clock.now = due[6] + 60  # the 23rd begins in Auckland: its review moves by NZ days
    card = await progress.next_card(6)
    assert card is not None
    order = "".join(map(str, card.order))
    done = await progress.answer(6, card.item_id, order, card.order.index(card.question.correct))
    assert done is not None and done.after is not None
    # FSRS: Good the day after a first miss comes back 2 days on (3 days under Leitner's box 2).
    assert done.after.due_at == start_of_day(date(2026, 9, 25), ZoneInfo("Pacific/Auckland"))


async def test_reminders_and_notices(db: Database) -> None:
    progress = service(db, Clock())
    await progress.store.set_reminder(5, "07:30", "Africa/Dakar", NOW)
    await progress.store.set_reminder(5, "08:00", "Africa/Dakar", NOW)
    assert [(r.user_id, r.at_time, r.timezone) for r in await progress.store.reminders()] == [
        (5, "08:00", "Africa/Dakar")
    ]
    assert await progress.store.clear_reminder(5)
    assert not await progress.store.clear_reminder(5)
    assert await progress.claim_notice(9, 5)
    assert not await progress.claim_notice(9, 5)
