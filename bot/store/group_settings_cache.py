"""`CachedGroupSettings`: a `GroupStore` that keeps each group's settings row (`groups`: its
language, whether popups give the verdict, …) in memory, so a member's tap in a group costs no
read of them after first sight (issue 32).

Every write of a `groups` row (a settings button, the bot joining, leaving or being found gone,
a title change, a migration to a supergroup), through whichever store and in whichever process,
announces it in its transaction (store/row_changes.py); this process hears its own once the
write is over, and with several workers the others' through PostgreSQL LISTEN/NOTIFY
(store/pg/row_listener.py). Hearing a change drops the group's copy, and a read that overlapped
a change is not kept. Where changes of other processes cannot be heard (not listening yet, or
the listening connection dropped) nothing is kept. A group never recorded is kept as such
(None): recording it is a write, and announced. Bounded: at most `GROUPS_KEPT` groups, then
all forgotten at once.
"""

from __future__ import annotations

from bot.store.group_rows import GroupSettings
from bot.store.groups import GroupStore
from bot.store.interface import Engine
from bot.store.row_changes import GROUPS

GROUPS_KEPT = 10_000  # groups whose settings are kept, at most (then forgotten)


class CachedGroupSettings(GroupStore):
    def __init__(self, db: Engine) -> None:
        super().__init__(db)
        self._settings: dict[int, GroupSettings | None] = {}
        self._changes = db.changes
        self._changes.follow(GROUPS, self._drop)

    def _drop(self, chat_id: int | None) -> None:
        if chat_id is None:
            self._settings.clear()
        else:
            self._settings.pop(chat_id, None)

    async def group(self, chat_id: int) -> GroupSettings | None:
        """From memory once read, until a change of the group is heard."""
        if chat_id in self._settings:
            return self._settings[chat_id]
        token = self._changes.token()
        found = await super().group(chat_id)
        if self._changes.keeps(token):
            if len(self._settings) >= GROUPS_KEPT:
                self._settings.clear()
            self._settings[chat_id] = found
        return found
