"""Whether a viewer administers a group, as the dashboard asks it: few Telegram calls per viewer.

A chat id in the dashboard's address is the viewer's to type, and every new one was a
getChatMember call (150 made-up ids: 150 calls, all on the bot's own flood budget). So: a group
the bot never saw is answered at once (no); a "no" or a failed check is remembered for a while
(bounded, expiring); and each viewer has a small budget of checks that reach Telegram (a token
bucket: a burst, then one every few seconds), so nobody can make us ask about more than a handful
of groups. A "yes" is not answered from here: `is_admin` is the bot's own cached check (a minute),
asked again on every request, and a recent "yes" only spares the viewer's budget. Kept here
too, it went stale on top of the bot's: a demoted admin kept the page for up to two minutes.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from enum import Enum
from typing import Generic, TypeVar

from bot.core.clock import Clock

log = logging.getLogger(__name__)
# (chat_id, user_id) -> administers it: a cached check (bot/usecases/group_admins.py)
IsAdmin = Callable[[int, int], Awaitable[bool]]
KnownGroup = Callable[[int], Awaitable[bool]]  # the bot is in this group, as far as it knows

BURST = 10  # checks a viewer may make at once
REFILL_SECONDS = 20.0  # then one more each this often
YES_SECONDS = 60.0
NO_SECONDS = 300.0
MAX_ENTRIES = 10_000

K = TypeVar("K")
V = TypeVar("V")


class Access(Enum):
    ADMIN = "admin"
    NOT_ADMIN = "not admin"
    TOO_MANY = "too many checks"  # the viewer's budget is spent: try again later


class _Expiring(Generic[K, V]):
    """A bounded map whose entries expire: the oldest entry goes first when it is full."""

    def __init__(self, limit: int = MAX_ENTRIES) -> None:
        self._items: OrderedDict[K, tuple[V, float]] = OrderedDict()
        self._limit = limit

    def get(self, key: K, now: float) -> V | None:
        found = self._items.get(key)
        if found is None:
            return None
        if found[1] <= now:
            del self._items[key]
            return None
        return found[0]

    def put(self, key: K, value: V, until: float) -> None:
        self._items.pop(key, None)
        self._items[key] = (value, until)
        while len(self._items) > self._limit:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class AdminGate:
    def __init__(self, is_admin: IsAdmin, known_group: KnownGroup, clock: Clock) -> None:
        self._is_admin = is_admin
        self._known_group = known_group
        self._clock = clock
        self._answers: _Expiring[tuple[int, int], bool] = _Expiring()
        self._failed: _Expiring[int, bool] = _Expiring()  # chats Telegram would not answer for
        self._budgets: _Expiring[int, tuple[float, float]] = _Expiring()  # user -> tokens, at

    async def check(self, chat_id: int, user_id: int) -> Access:
        now = self._clock()
        answer = self._answers.get((chat_id, user_id), now)
        if answer is False:
            return Access.NOT_ADMIN
        if answer is None:
            if self._failed.get(chat_id, now) or not await self._known_group(chat_id):
                return Access.NOT_ADMIN
            if not self._spend(user_id, now):  # the caller logs the refusal, within its budget
                return Access.TOO_MANY
        try:
            admin = await self._is_admin(chat_id, user_id)
        except Exception as exc:  # an unknown chat, Telegram unreachable: no access, said why
            log.info("dashboard: admin check for chat %s failed: %s", chat_id, exc)
            self._failed.put(chat_id, True, now + NO_SECONDS)
            return Access.NOT_ADMIN
        self._answers.put((chat_id, user_id), admin, now + (YES_SECONDS if admin else NO_SECONDS))
        return Access.ADMIN if admin else Access.NOT_ADMIN

    def _spend(self, user_id: int, now: float) -> bool:
        tokens, at = self._budgets.get(user_id, now) or (float(BURST), now)
        tokens = min(float(BURST), tokens + (now - at) / REFILL_SECONDS)
        if tokens < 1:
            return False
        # An idle viewer's bucket refills completely in BURST * REFILL_SECONDS: forget it then.
        self._budgets.put(user_id, (tokens - 1, now), now + BURST * REFILL_SECONDS)
        return True
