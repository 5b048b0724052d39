"""Forum topics: the topic an update is answered in, and Telegram's refusal of a gone topic.

In a supergroup with topics (`chat.is_forum`) a message sent without `message_thread_id` lands
in General, so every answer must name its topic. The place is resolved once per update
(`LearnerResolver`, bot/tg/context.py) and kept in a context variable that
`GroupRunner.send` reads for every reply, whichever handler sends it: no handler passes it by
hand. asyncio copies context variables into the tasks an update starts, so a step spawned by
an update keeps its update's topic while the next update sets its own. A run does not rely on
it: it stores its topic (`GroupRun.thread_id`) and every one of its sends, also timer-driven
ones after a restart or on another worker, names it explicitly.
"""

from __future__ import annotations

from contextvars import ContextVar

from telegram import Message, Update
from telegram.error import BadRequest, Forbidden

# (chat id, thread id) of the update being handled; thread 0: no topic (General of a forum, a
# group without topics, a private chat), and (0, 0) outside any update.
_REPLY_THREAD: ContextVar[tuple[int, int]] = ContextVar("quizbot_reply_thread", default=(0, 0))


class TopicGone(Exception):
    """A send to a forum topic was refused: the topic was closed or deleted."""

    def __init__(self, chat_id: int, thread_id: int, reason: str) -> None:
        super().__init__(f"topic {thread_id} of chat {chat_id}: {reason}")
        self.chat_id, self.thread_id = chat_id, thread_id


class Muted(TopicGone):
    """A send to a group was refused: the bot may not send there (an admin took that right
    away, or made the group read-only). Like a gone topic, it ends what played there."""

    def __init__(self, chat_id: int, reason: str) -> None:
        Exception.__init__(self, f"chat {chat_id}: {reason}")
        self.chat_id, self.thread_id = chat_id, 0


_MUTED = ("not enough rights to send", "have no rights to send")
# Telegram's words (PTB strips "Bad Request: ") for a chat the bot can no longer reach for good.
_GONE = ("chat not found", "bot was kicked", "bot is not a member", "group chat was deactivated",
         "group chat was deleted", "chat was deleted")  # fmt: skip


def chat_gone(exc: Exception) -> bool:
    """Telegram's refusal naming a chat the bot can no longer reach for good: deleted, or the
    bot removed from it (a 400 or a 403)."""
    text = str(exc).lower()
    return isinstance(exc, BadRequest | Forbidden) and any(words in text for words in _GONE)


def muted(exc: Exception) -> bool:
    """Telegram's refusal of a send by a bot without the right to send in that chat."""
    text = str(exc).lower()
    return isinstance(exc, BadRequest) and any(words in text for words in _MUTED)


def topic_gone(exc: Exception) -> bool:
    """Telegram's refusal of a send to a forum topic that was closed or deleted."""
    text = str(exc).lower()
    return isinstance(exc, BadRequest) and ("thread not found" in text or "topic_closed" in text)


def thread_of(update: Update) -> int:
    """The topic an update is answered in: its message's topic in a forum, else 0 (General
    takes no explicit thread id; outside forums a thread id names a reply thread, not a
    place). For a tap, the topic of the message that carries the button."""
    chat, message = update.effective_chat, update.effective_message
    if chat is None or not chat.is_forum or not isinstance(message, Message):
        return 0
    if message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


def topic_name(update: Update) -> str:
    """The topic's name when Telegram says it (a topic message replies to the topic's
    creation message, which carries the name), else ""."""
    message = update.effective_message
    replied = message.reply_to_message if isinstance(message, Message) else None
    created = replied.forum_topic_created if replied is not None else None
    return created.name if created is not None else ""


def set_reply_thread(chat_id: int, thread_id: int) -> None:
    _REPLY_THREAD.set((chat_id, thread_id))


def reply_thread(chat_id: int) -> int:
    """The topic a message to `chat_id` answering the update being handled goes to: the
    update's topic in its own chat, none (0) in any other chat."""
    update_chat, thread_id = _REPLY_THREAD.get()
    return thread_id if chat_id == update_chat else 0
