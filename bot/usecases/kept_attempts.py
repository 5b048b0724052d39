"""Private attempts kept in memory between taps (`KeptAttempts`), or none kept
(`NoKeptAttempts`): the composition root (bot/compose.py) gives `PrivateQuiz` one or the other
from `ServiceSettings.shared`, and the use case does not know which it got (issue 26).

One process is the only writer of its attempts, so a copy cannot go stale and a tap then costs
one write and no read. With several workers another process may answer, stop or start an
attempt, so nothing is kept and every look-up reads the store (docs/caches.md). This is not a
plain cached read of the store: the use case puts in the attempt as an answer left it (the
store is given the attempt before the answer, not after), and drops it after a lost race.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

from bot.core.engine import Attempt, Status

CACHE_SIZE = 10_000  # attempts kept (the oldest go first), and other per-learner memories
V = TypeVar("V")


class Lru(OrderedDict[int, V]):
    """A bounded map: the oldest entries go first once it is full."""

    def remember(self, key: int, value: V) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > CACHE_SIZE:
            self.popitem(last=False)


class KeptAttempts:
    """One process: the attempts it read or changed last, at most `CACHE_SIZE`."""

    def __init__(self) -> None:
        self._attempts: Lru[Attempt] = Lru()
        # user -> ids of their attempts kept as active: forgetting them must not scan the cache.
        self._active_ids: dict[int, set[int]] = {}

    def get(self, attempt_id: int) -> Attempt | None:
        return self._attempts.get(attempt_id)

    def remember(self, attempt: Attempt) -> None:
        """Keep the attempt as it now is."""
        self._attempts.remember(attempt.id, attempt)
        if attempt.status is Status.ACTIVE:
            self._active_ids.setdefault(attempt.user_id, set()).add(attempt.id)
        elif attempt.user_id in self._active_ids:
            self._active_ids[attempt.user_id].discard(attempt.id)

    def forget(self, attempt_id: int) -> None:
        """After a lost race: the next look-up reads the store."""
        self._attempts.pop(attempt_id, None)

    def forget_active(self, user_id: int) -> None:
        """The learner started another attempt or stopped: their active ones are gone."""
        for key in self._active_ids.pop(user_id, ()):
            value = self._attempts.get(key)
            if value is not None and value.status is Status.ACTIVE:
                self._attempts.pop(key, None)

    def forget_user(self, user_id: int) -> list[int]:
        """After /forget: none of the user's attempts stays; returns the ids that were kept."""
        self._active_ids.pop(user_id, None)
        keys = [k for k, attempt in self._attempts.items() if attempt.user_id == user_id]
        for key in keys:
            self._attempts.pop(key, None)
        return keys


class NoKeptAttempts(KeptAttempts):
    """Several workers on one store: nothing is kept, so every look-up reads the store."""

    def remember(self, attempt: Attempt) -> None:
        del attempt
