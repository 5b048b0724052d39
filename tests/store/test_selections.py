"""Select-all questions in the store (migration 012), on SQLite and on PostgreSQL: toggles are
kept per person and question until Submit, are refused once the question takes no answers, and
the submission is the one answer, with its set of option ids and its partial credit."""

from __future__ import annotations

import asyncio

from bot.store import Database, GroupStore, LearnerStore, Stored
from bot.store.forget import ForgetStore
from bot.store.reviews import ReviewStore
from bot.store.selections import SelectionStore

ORDERS = ((2, 0, 1, 3), (1, 0))
CHAT = -100


async def test_toggles_flip_one_option_each_and_stay_per_person(db: Database) -> None:
    learners, picks = LearnerStore(db), SelectionStore(db)
    attempt_id = await learners.start_attempt(7, "quiz", ORDERS, 1.0)
    assert await picks.toggle(attempt_id, 0, 7, 0, 2.0, group=False) == {0}
    assert await picks.toggle(attempt_id, 0, 7, 2, 3.0, group=False) == {0, 2}
    assert await picks.toggle(attempt_id, 0, 7, 0, 4.0, group=False) == {2}
    assert await picks.selected(attempt_id, 0, 7) == {2}
    assert await picks.selected(attempt_id, 0, 8) == frozenset()  # nobody else's
    assert await picks.selected(attempt_id, 1, 7) == frozenset()


async def test_quick_taps_never_lose_a_flip(db: Database) -> None:
    learners, picks = LearnerStore(db), SelectionStore(db)
    attempt_id = await learners.start_attempt(7, "quiz", ORDERS, 1.0)
    await asyncio.gather(*(picks.toggle(attempt_id, 0, 7, i, 2.0, group=False) for i in range(4)))
    assert await picks.selected(attempt_id, 0, 7) == {0, 1, 2, 3}


async def test_submission_is_the_answer_and_ends_the_toggles(db: Database) -> None:
    learners, picks = LearnerStore(db), SelectionStore(db)
    attempt_id = await learners.start_attempt(7, "quiz", ORDERS, 1.0)
    await picks.toggle(attempt_id, 0, 7, 1, 2.0, group=False)
    attempt = await learners.attempt(attempt_id)
    assert attempt is not None
    stored = await learners.record_answer(
        attempt, 0, 1, False, "en", 3.0,
        question_id="q1", option_id="b", selected_ids="b,c", score=0.5,
    )  # fmt: skip
    assert stored
    # A second submission (a double tap on Submit) changes nothing.
    assert not await learners.record_answer(
        attempt, 0, 0, True, "en", 3.5,
        question_id="q1", option_id="a", selected_ids="a", score=1.0,
    )  # fmt: skip
    rows = await db.rows(  # type: ignore[attr-defined]
        "SELECT option_id, selected_ids, score, is_correct FROM answers WHERE attempt_id = ?",
        attempt_id,
    )
    assert rows == [("b", "b,c", 0.5, 0)]
    assert await picks.selected(attempt_id, 0, 7) == frozenset()  # cleared by the answer
    assert await picks.toggle(attempt_id, 0, 7, 2, 4.0, group=False) is None
    again = await learners.attempt(attempt_id)
    assert again is not None and again.selections == ((0, frozenset({"b", "c"})),)
    assert again.current == 1


async def test_no_toggle_once_the_attempt_is_over(db: Database) -> None:
    learners, picks = LearnerStore(db), SelectionStore(db)
    attempt_id = await learners.start_attempt(7, "quiz", ORDERS, 1.0)
    assert await learners.abandon(7, 2.0) == attempt_id
    assert await picks.toggle(attempt_id, 0, 7, 1, 3.0, group=False) is None
    # A private attempt's id does not open a group toggle either.
    assert await picks.toggle(attempt_id, 0, 7, 1, 3.0, group=True) is None


async def test_group_toggles_only_on_the_open_question(db: Database) -> None:
    groups, picks = GroupStore(db), SelectionStore(db)
    run_id = await groups.start_run(CHAT, 1, "quiz", "[[2,0,1,3],[1,0]]", 30.0, 1.0)
    assert run_id is not None
    assert await picks.toggle(run_id, 0, 5, 1, 2.0, group=True) is None  # not asked yet
    await groups.open_question(run_id, 0, 2.0, 32.0)
    assert await picks.toggle(run_id, 0, 5, 1, 3.0, group=True) == {1}
    assert await picks.toggle(run_id, 0, 6, 3, 3.0, group=True) == {3}
    assert await picks.toggle(run_id, 1, 5, 1, 3.0, group=True) is None  # not the open one
    stored = await groups.record_answer(
        run_id, 0, 5, "Awa", "fr", 1, False, "fr", 4.0, 2000,
        question_id="q1", option_id="b", version="v1", selected_ids="b", score=0.5,
    )  # fmt: skip
    assert stored is Stored.STORED
    assert await picks.selected(run_id, 0, 5) == frozenset()
    assert await picks.selected(run_id, 0, 6) == {3}  # another member's stays theirs
    assert await groups.close_question(run_id, 0)
    assert await picks.toggle(run_id, 0, 6, 1, 40.0, group=True) is None


async def test_forgetting_a_learner_drops_their_pending_selections(db: Database) -> None:
    learners, picks = LearnerStore(db), SelectionStore(db)
    attempt_id = await learners.start_attempt(7, "quiz", ORDERS, 1.0)
    await picks.toggle(attempt_id, 0, 7, 1, 2.0, group=False)
    await ForgetStore(db).forget(7)
    rows = await db.rows("SELECT count(*) FROM pending_selections")  # type: ignore[attr-defined]
    assert rows == [(0,)]


async def test_a_score_outside_zero_to_one_is_refused(db: Database) -> None:
    learners = LearnerStore(db)
    attempt_id = await learners.start_attempt(7, "quiz", ORDERS, 1.0)
    attempt = await learners.attempt(attempt_id)
    assert attempt is not None
    try:
        stored = await learners.record_answer(
            attempt, 0, 1, False, "en", 3.0,
            question_id="q1", option_id="b", selected_ids="b", score=1.5,
        )  # fmt: skip
    except Exception:
        stored = False
    assert not stored
    assert await db.rows("SELECT count(*) FROM answers") == [(0,)]  # type: ignore[attr-defined]


async def test_a_missed_select_all_answer_is_announced_as_joining_the_review_queue(
    db: Database,
) -> None:
    groups, learners = GroupStore(db), LearnerStore(db)
    await learners.touch_user(5, "Awa", "en", 1.0, private=True)
    run_id = await groups.start_run(CHAT, 1, "quiz", "[[2,0,1,3],[1,0]]", 30.0, 1.0)
    assert run_id is not None
    await groups.open_question(run_id, 0, 2.0, 32.0)
    await groups.record_answer(
        run_id, 0, 5, "Awa", "en", 1, False, "en", 3.0, 1000,
        question_id="facts", option_id="b", version="v1", selected_ids="b", score=0.5,
    )  # fmt: skip
    assert await groups.close_question(run_id, 0)
    await groups.open_question(run_id, 1, 4.0, 34.0)
    await groups.record_answer(
        run_id, 1, 5, "Awa", "en", 0, False, "en", 5.0, 1000,
        question_id="single", option_id="a", version="v1",
    )  # fmt: skip
    # Both misses: a partly right select-all answer joins the queue (reviewed with Submit).
    assert await ReviewStore(db).run_misses(run_id) == {5: 2}
