"""Typed answers (kind: number, migration 013) on SQLite and PostgreSQL: the reply is kept as
typed with its value, still one answer per person per question per attempt, and a group's
typed-answers setting defaults to off."""

from __future__ import annotations

import asyncio

from bot.core.kinds import NUMBER_RIGHT, NUMBER_WRONG
from bot.store import Database, GroupStore, LearnerStore

ORDERS = ((), (1, 0))  # a number question (no options), then a two-option one


async def test_a_typed_answer_is_kept_as_typed_with_its_value(db: Database) -> None:
    store = LearnerStore(db)
    await store.start_attempt(7, "quiz", ORDERS, 1.0)
    attempt = await store.active_attempt(7)
    assert attempt is not None
    stored = await store.record_answer(
        attempt,
        0,
        NUMBER_RIGHT,
        True,
        "fr",
        2.0,
        question_id="n",
        option_id="",
        typed=("0,5 Go", 0.5),
    )
    assert stored
    rows = await db.rows(  # type: ignore[attr-defined]
        "SELECT typed_text, typed_value, option_index, is_correct FROM answers"
    )
    assert [tuple(r) for r in rows] == [("0,5 Go", 0.5, NUMBER_RIGHT, 1)]
    again = await store.attempt(attempt.id)
    assert again is not None and again.answers == (NUMBER_RIGHT, None) and again.current == 1


async def test_one_typed_answer_per_question_even_when_racing(db: Database) -> None:
    store = LearnerStore(db)
    await store.start_attempt(7, "quiz", ORDERS, 1.0)
    attempt = await store.active_attempt(7)
    assert attempt is not None
    results = await asyncio.gather(
        *(
            store.record_answer(
                attempt,
                0,
                NUMBER_WRONG,
                False,
                "en",
                2.0,
                question_id="n",
                option_id="",
                typed=(str(i), float(i)),
            )
            for i in range(6)
        )
    )
    assert results.count(True) == 1
    assert len(await db.rows("SELECT typed_text FROM answers")) == 1  # type: ignore[attr-defined]


async def test_the_asked_message_is_remembered_per_attempt(db: Database) -> None:
    store = LearnerStore(db)
    attempt_id = await store.start_attempt(7, "quiz", ORDERS, 1.0)
    assert await store.typed_prompt(attempt_id) is None
    await store.typed_question_sent(attempt_id, 42)
    assert await store.typed_prompt(attempt_id) == (42, 0)
    await store.typed_prompt_sent(attempt_id, 43)
    assert await store.typed_prompt(attempt_id) == (42, 43)
    await store.typed_question_sent(attempt_id, 50)  # the next number question
    assert await store.typed_prompt(attempt_id) == (50, 0)  # 43 was the earlier one's prompt
    await store.typed_question_sent(attempt_id, None)  # answered
    assert await store.typed_prompt(attempt_id) is None


async def test_typed_answers_in_groups_are_off_until_an_admin_turns_them_on(db: Database) -> None:
    groups = GroupStore(db)
    await groups.ensure_group(-100, "Study", "en", 30, "UTC", 1.0)
    settings = await groups.group(-100)
    assert settings is not None and settings.typed_answers is False
    await groups.update_group(-100, "typed_answers", 1, 2.0)
    settings = await groups.group(-100)
    assert settings is not None and settings.typed_answers is True
