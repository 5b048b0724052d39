"""`ReadUpdates`: the updates a worker's webhook front has read, kept for that worker's own
consumer, so an update is parsed once in the process, not twice (issue 32).

The front reads every body with PTB (`read_update`) to refuse, with a 400, one that PTB could
not read; the consumer used to parse the stored text again. The front now hands what it read
here, keyed by the exact text it stored, and the consumer takes it back when it claims that
text (`QuizBot.process_payload`). Not a cache of store data: a pure parse of a text, which
cannot go stale. An update another worker claims is never taken here and falls out after
`READ_KEPT` newer ones; after a restart every payload is parsed as before.
"""

from __future__ import annotations

from collections import OrderedDict

from telegram import Update

READ_KEPT = 1024  # updates read by the front and not yet handled here, at most


class ReadUpdates:
    def __init__(self, limit: int = READ_KEPT) -> None:
        self.limit = limit
        self._read: OrderedDict[str, Update] = OrderedDict()

    def keep(self, payload: str, update: object) -> None:
        """What the front read of `payload`, just stored in the inbox."""
        if isinstance(update, Update):
            self._read[payload] = update
            if len(self._read) > self.limit:
                self._read.popitem(last=False)

    def take(self, payload: str) -> Update | None:
        """The front's reading of `payload`, once; None if this process's front did not keep it."""
        return self._read.pop(payload, None)

    def __len__(self) -> int:
        return len(self._read)
