"""A forum topic created or renamed: its name is kept, because Telegram tells a topic's current
name only on those service messages (every later message of the topic carries its first name).
Nothing is said in the chat; an icon change, a topic closed or reopened changes no name.
"""

from __future__ import annotations

from telegram import Update

from bot.tg.context import BotContext
from bot.usecases.forum_topics import ForumTopics


class TopicHandlers:
    def __init__(self, topics: ForumTopics) -> None:
        self.topics = topics

    async def named(self, update: Update, context: BotContext) -> None:
        """forum_topic_created or forum_topic_edited, in the topic it names (the update's
        topic, resolved before any handler: bot/tg/context.py)."""
        message = update.effective_message
        if message is None:
            return
        created, edited = message.forum_topic_created, message.forum_topic_edited
        name = created.name if created is not None else edited.name if edited is not None else None
        await self.topics.named(message.chat_id, context.thread_id, name, message.message_id)
