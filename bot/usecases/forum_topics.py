"""Forum topics' names: kept as the bot hears them, because Telegram tells a topic's current
name only once, on the service message that creates or renames it (every later message of the
topic carries its first name). /schedules, a schedule's confirmation and its "topic closed"
notice show the name kept (bot/store/schedules.py reads it with the schedules).
"""

from __future__ import annotations

import time

from bot.core.clock import Clock
from bot.store.topic_names import TopicNameStore


class ForumTopics:
    def __init__(self, store: TopicNameStore, *, clock: Clock = time.time) -> None:
        self.store = store
        self.clock = clock

    async def named(self, chat_id: int, thread_id: int, name: str | None, message_id: int) -> bool:
        """Message `message_id` of topic `thread_id` named it `name` (created, or renamed);
        True if kept. No name (an icon changed, nothing else) keeps the name as it was, and so
        does General (thread 0), whose name nothing shows."""
        if not thread_id or not name:
            return False
        return await self.store.named(chat_id, thread_id, name, message_id, self.clock())

    async def names(self, chat_id: int) -> dict[int, str]:
        """The group's topic names as last heard, by thread id (a topic never heard: absent)."""
        return await self.store.names(chat_id)
