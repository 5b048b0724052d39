"""Forum topics' names as last heard (migration 034): the latest service message wins, and every
read of a schedule shows its topic's name as last heard, else the name it was made with."""

from __future__ import annotations

from typing import Any

from bot.store import ScheduleStore
from bot.store.topic_names import TopicNameStore

FORUM, OTHER = -1001234567, -1007654321
QUIZZES, MATHS = 4, 5  # thread ids: the ids of the topics' creation messages


async def test_the_latest_message_names_the_topic_whatever_the_order(db: Any) -> None:
    names = TopicNameStore(db)
    assert await names.named(FORUM, QUIZZES, "Quizzes", QUIZZES, 1.0)  # created
    assert await names.named(FORUM, QUIZZES, "Exam prep", 20, 2.0)  # renamed
    assert not await names.named(FORUM, QUIZZES, "Quizzes", QUIZZES, 3.0)  # the creation, late
    assert not await names.named(FORUM, QUIZZES, "Exam prep", 20, 4.0)  # delivered again
    assert await names.named(OTHER, QUIZZES, "Quiz", 9, 5.0)  # the same thread id elsewhere
    rows = await db.rows("SELECT chat_id, thread_id, name, message_id FROM topic_names")
    assert sorted(rows) == [(OTHER, QUIZZES, "Quiz", 9), (FORUM, QUIZZES, "Exam prep", 20)]
    assert await names.names(FORUM) == {QUIZZES: "Exam prep"}  # a group's own, as last heard
    assert await names.names(-100) == {}


async def test_a_schedule_shows_its_topics_name_as_last_heard(db: Any) -> None:
    names, schedules = TopicNameStore(db), ScheduleStore(db)
    made = await schedules.add_schedule(FORUM, "next", "0", "08:00", 1, 1.0, QUIZZES, "Quizzes")
    general = await schedules.add_schedule(FORUM, "random", "1", "09:00", 1, 1.0)
    assert made.thread_name == "Quizzes"  # never heard: the name it was made with
    await names.named(FORUM, QUIZZES, "Exam prep", 20, 2.0)
    await names.named(OTHER, MATHS, "Algebra", 21, 2.0)  # another chat's topic
    assert [(s.thread_id, s.thread_name) for s in await schedules.schedules(FORUM)] == [
        (QUIZZES, "Exam prep"),
        (0, ""),
    ]
    assert [s.thread_name for s in await schedules.schedules()] == ["Exam prep", ""]
    kept = await schedules.schedule(made.id)
    assert kept is not None and kept.thread_name == "Exam prep"
    assert (await schedules.schedule(general.id)) == general
    # Made after a rename, in a topic whose messages still carry its first name.
    await names.named(FORUM, MATHS, "Algebra", 22, 3.0)
    later = await schedules.add_schedule(FORUM, "next", "2", "10:00", 1, 3.0, MATHS, "Maths")
    assert later.thread_name == "Algebra"
