"""The bot's update queue and getUpdates' long polling, with Telegram's offset and conflict rules.

A poller waits on a future and returns as soon as an update arrives. As on Telegram, a
second getUpdates while one is waiting ends the first with 409 Conflict (two bot instances), and
`allowed_updates` is remembered between calls; updates of other types are dropped.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from .errors import ApiError

# Telegram's default when allowed_updates was never set (or set to []).
DEFAULT_EXCLUDED = frozenset({"chat_member", "message_reaction", "message_reaction_count"})

CONFLICT = ApiError(
    409,
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running",
)


_NEW, _CONFLICT, _CLOSED = "new", "conflict", "closed"
RECENT = 1_000  # updates kept for `redeliver`


class UpdateQueue:
    def __init__(self) -> None:
        self._pending: deque[tuple[int, str, dict[str, Any]]] = deque()
        self._next_id = 1
        self._allowed: frozenset[str] | None = None  # None: all but DEFAULT_EXCLUDED
        self._waiter: asyncio.Future[str] | None = None  # the long poll in progress, if any
        self._closed = False
        self.delivered = 0
        # Updates pushed lately, so a test can have one delivered again (Telegram re-sends an
        # update when a webhook fails or a poller dies before confirming it).
        self._recent: dict[int, tuple[str, dict[str, Any]]] = {}
        self._again: deque[tuple[int, str, dict[str, Any]]] = deque()

    def __len__(self) -> int:
        return len(self._pending)

    def push(self, kind: str, payload: dict[str, Any]) -> int:
        """Queue an update of `kind` ("message", "callback_query", ...) and wake the poller."""
        update_id = self._next_id
        self._next_id += 1
        self._pending.append((update_id, kind, payload))
        self._recent[update_id] = (kind, payload)
        if len(self._recent) > RECENT:
            del self._recent[next(iter(self._recent))]
        self._wake(_NEW)
        return update_id

    @property
    def last_id(self) -> int:
        """The id of the latest update pushed (0 before any)."""
        return self._next_id - 1

    def redeliver(self, update_id: int | None = None) -> int:
        """Deliver an update once more, identical (same update_id), even if already confirmed."""
        update_id = self.last_id if update_id is None else update_id
        kind, payload = self._recent[update_id]
        self._again.append((update_id, kind, payload))
        self._wake(_NEW)
        return update_id

    def _wake(self, reason: str) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(reason)

    def clear(self) -> None:
        self._pending.clear()

    def set_allowed(self, allowed: list[str] | None) -> None:
        if allowed is not None:
            self._allowed = frozenset(allowed) if allowed else None

    def _is_allowed(self, kind: str) -> bool:
        if self._allowed is None:
            return kind not in DEFAULT_EXCLUDED
        return kind in self._allowed

    def _confirm(self, offset: int) -> None:
        pending = self._pending
        if offset > 0:
            while pending and pending[0][0] < offset:
                pending.popleft()
        elif offset < 0:
            while len(pending) > -offset:
                pending.popleft()
        if any(not self._is_allowed(kind) for _, kind, _ in pending):
            self._pending = deque(u for u in pending if self._is_allowed(u[1]))

    def _take(self, limit: int) -> list[dict[str, Any]]:
        batch: list[dict[str, Any]] = []
        while self._again and len(batch) < limit:
            update_id, kind, payload = self._again.popleft()
            batch.append({"update_id": update_id, kind: payload})
        for update_id, kind, payload in self._pending:
            if len(batch) >= limit:
                break
            batch.append({"update_id": update_id, kind: payload})
        self.delivered += len(batch)
        return batch

    async def get(self, offset: int, limit: int, timeout: float) -> list[dict[str, Any]]:
        """getUpdates: confirm below `offset`, then return up to `limit`, waiting `timeout` s."""
        self._wake(_CONFLICT)  # an older poller still waiting loses, as on Telegram
        self._confirm(offset)
        deadline = asyncio.get_running_loop().time() + timeout
        while not self._pending and not self._again and not self._closed:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                break
            waiter = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                reason = await asyncio.wait_for(waiter, remaining)
            except TimeoutError:
                reason = None
            finally:
                if self._waiter is waiter:
                    self._waiter = None
            if reason == _CONFLICT:
                raise CONFLICT
            self._confirm(offset)  # drops updates of types the bot did not ask for
        return self._take(limit)

    def close(self) -> None:
        """Release the poller with an empty answer (server shutdown)."""
        self._closed = True
        self._wake(_CLOSED)
