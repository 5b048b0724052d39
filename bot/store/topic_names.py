"""Forum topics' names as the bot last heard them (migration 034).

Telegram names a topic on the service message that creates it and on the one that renames it,
and nowhere else that stays current: every later message of the topic replies to its creation,
which keeps the first name. So the names are written when those messages arrive (one upsert, a
rare event) and read where a topic is shown: `schedules.py` reads them with the schedules, in the
same statement, so no caller asks twice; `names` serves a group's other screens (a /stop
where no quiz runs names the topics that play one).
"""

from __future__ import annotations

from bot.store.conn import Conn
from bot.store.interface import Engine

# The topic's name as last heard, for a query over `schedules` (NULL when never heard).
HEARD_NAME = """(SELECT n.name FROM topic_names n
                 WHERE n.chat_id = schedules.chat_id AND n.thread_id = schedules.thread_id)"""


class TopicNameStore:
    def __init__(self, db: Engine) -> None:
        self.db = db

    async def named(
        self, chat_id: int, thread_id: int, name: str, message_id: int, now: float
    ) -> bool:
        """Topic `thread_id` of `chat_id` is called `name` since message `message_id`; True if
        that is news. A message older than the name kept (an update handled late) changes
        nothing: message ids grow in a chat, so the latest rename wins whatever the order."""

        async def upsert(conn: Conn) -> bool:
            cur = await conn.execute(
                """INSERT INTO topic_names (chat_id, thread_id, name, message_id, named_at)
                   VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT (chat_id, thread_id) DO UPDATE SET
                       name = excluded.name, message_id = excluded.message_id,
                       named_at = excluded.named_at
                   WHERE excluded.message_id > topic_names.message_id""",
                (chat_id, thread_id, name, message_id, now),
            )
            return cur.rowcount == 1

        return await self.db.write(upsert)

    async def names(self, chat_id: int) -> dict[int, str]:
        """The names heard of `chat_id`'s topics, by thread id."""
        async with self.db.reader.execute(
            "SELECT thread_id, name FROM topic_names WHERE chat_id = ?", (chat_id,)
        ) as cur:
            return {int(r[0]): str(r[1]) for r in await cur.fetchall()}
