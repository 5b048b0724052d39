"""What this process asked a learner last and waits for a typed reply to (`KeptAsked`): a
private attempt's open number question with its messages (private_replies.py), a round's open
number card (round_replies.py). The composition root (bot/compose.py) gives one process a
`KeptAsked`, believed as the truth, and several workers a `SharedAsked` (issue 26).

Not a plain cached read of the store: with several workers the copy is still kept, because it
names the prompt this worker sent before for the same question, which it deletes when it asks
again; but it is never *believed* (`believed` is None), since another worker may have asked or
answered since: which question a reply answers is then read from the store (docs/caches.md).
Bounded: at most `CACHE_SIZE` learners or attempts, then all forgotten at once (the store has
them).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from bot.usecases.kept_attempts import CACHE_SIZE

V = TypeVar("V")


class KeptAsked(Generic[V]):
    """One process: what it asked last is what is open (it is the only writer)."""

    def __init__(self) -> None:
        self._kept: dict[int, V] = {}

    def last(self, key: int) -> V | None:
        """What this process asked last under `key`, believed or not."""
        return self._kept.get(key)

    def believed(self, key: int) -> V | None:
        """What is open under `key` without reading the store; None: read the store."""
        return self._kept.get(key)

    def remember(self, key: int, value: V) -> V | None:
        """Asked anew; returns what it replaces (all forgotten first when full)."""
        if len(self._kept) >= CACHE_SIZE:
            self._kept.clear()
        before = self._kept.get(key)
        self._kept[key] = value
        return before

    def update(self, key: int, value: V) -> None:
        """The same question, with what was learnt since (its prompt's message)."""
        self._kept[key] = value

    def forget(self, key: int) -> None:
        self._kept.pop(key, None)

    def clear(self) -> None:
        self._kept.clear()


class SharedAsked(KeptAsked[V]):
    """Several workers: kept only to find this worker's own earlier prompt, never believed."""

    def believed(self, key: int) -> V | None:
        del key
        return None
