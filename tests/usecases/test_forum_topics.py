"""A topic's name is kept when a service message names it; an icon change (no name) and General
(no topic) change nothing (bot/usecases/forum_topics.py)."""

from __future__ import annotations

from typing import Any

from bot.store.topic_names import TopicNameStore
from bot.usecases.forum_topics import ForumTopics

FORUM = -1001234567


async def test_only_a_named_topic_is_kept(db: Any) -> None:
    topics = ForumTopics(TopicNameStore(db), clock=lambda: 5.0)
    assert await topics.named(FORUM, 4, "Quizzes", 4)
    assert not await topics.named(FORUM, 4, None, 9)  # an icon changed: the name stays
    assert not await topics.named(FORUM, 4, "", 10)
    assert not await topics.named(FORUM, 0, "Lobby", 11)  # General: nothing shows its name
    rows = await db.rows("SELECT thread_id, name, message_id, named_at FROM topic_names")
    assert rows == [(4, "Quizzes", 4, 5.0)]
