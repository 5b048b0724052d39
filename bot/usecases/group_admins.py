"""Who may run a group's quizzes: creators and administrators, remembered for a short while.

Asking Telegram (getChatMember) for every command would cost a round trip each time and count
against flood limits; a minute-long cache keeps a demoted admin's powers for at most a minute
(none at all where the bot is an administrator: Telegram then tells it of the change).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core.clock import Clock

ADMIN_STATUSES = frozenset({"creator", "administrator"})
GROUP_ANONYMOUS_BOT = 1087968824  # Telegram's stand-in for admins who post as the group
TTL_SECONDS = 60.0
MAX_ENTRIES = 10_000

FetchStatus = Callable[[int, int], Awaitable[str]]  # (chat_id, user_id) -> member status


class AdminCache:
    def __init__(self, fetch: FetchStatus, clock: Clock, ttl: float = TTL_SECONDS) -> None:
        self._fetch = fetch
        self._clock = clock
        self._ttl = ttl
        self._seen: dict[tuple[int, int], tuple[bool, float]] = {}

    async def is_admin(self, chat_id: int, user_id: int, sender_chat_id: int | None = None) -> bool:
        """Whether this sender administers the chat; an anonymous admin posts as the chat itself."""
        if sender_chat_id is not None:
            return sender_chat_id == chat_id
        if user_id == GROUP_ANONYMOUS_BOT:
            return False  # claims to be the stand-in without the group as sender: forged
        now = self._clock()
        cached = self._seen.get((chat_id, user_id))
        if cached is not None and cached[1] > now:
            return cached[0]
        status = await self._fetch(chat_id, user_id)
        admin = status in ADMIN_STATUSES
        if len(self._seen) >= MAX_ENTRIES:
            self._seen.clear()
        self._seen[(chat_id, user_id)] = (admin, now + self._ttl)
        return admin

    def forget(self, chat_id: int, user_id: int) -> None:
        """Telegram said this member's status changed (chat_member): ask again next time."""
        self._seen.pop((chat_id, user_id), None)

    def forget_chat(self, chat_id: int) -> None:
        """Drop what we knew about a chat (the bot left, or it became a supergroup)."""
        for key in [k for k in self._seen if k[0] == chat_id]:
            del self._seen[key]
