"""`RowChanges`: what this process hears of changes to the rows its caches keep (a learner's
`users` row, a group's `groups` row), so a cache drops its copy instead of going stale (issue 32).

Every store function that changes such a row says so inside its transaction
(`conn.announce(USERS, user_id)`). The engine hears its own announcements once the write is
done (committed or not: dropping a copy is always safe); on PostgreSQL the same transaction also
NOTIFYs `CHANNEL`, which PostgreSQL delivers to every listening worker at commit
(bot/store/pg/row_listener.py), and never for a transaction that rolled back.

A cache (store/learner_choices.py, store/group_settings_cache.py) keeps a read only when no
change was heard while it was in flight (`token` before, `keeps` after: a generation counter, as
store/no_exam.py does for exam starts), so a read that may predate a change is never kept past
the change. Where other processes write (several workers), the process only knows what it has
heard while it is listening: until it listens, and from the moment its listening connection
drops until it listens again, caches keep nothing and read every time (`deaf`, `hearing`).
"""

from __future__ import annotations

from collections.abc import Callable

CHANNEL = "quizbot_rows"  # NOTIFY'd with "<table>:<key>" by every write of a cached row
USERS, GROUPS = "u", "g"  # a learner's `users` row (by user id), a group's `groups` row (chat id)
EXAMS = "x"  # a learner's exam started (by user id): "no exam running" is kept (store/no_exam.py)

Drop = Callable[[int | None], None]  # forget one key's copy; None: every copy


def payload(table: str, key: int) -> str:
    return f"{table}:{key}"


class RowChanges:
    def __init__(self, *, across_processes: bool = False) -> None:
        # One process (SQLite, or PostgreSQL without workers) writes alone: it hears every
        # change it makes. Several workers hear each other only through a listening connection,
        # and are deaf until it listens.
        self.across_processes = across_processes
        self.listening = not across_processes
        self._generation = 0
        self._drops: dict[str, list[Drop]] = {}

    def follow(self, table: str, drop: Drop) -> None:
        """A cache of `table`'s rows: `drop(key)` on each change heard, `drop(None)` when deaf."""
        self._drops.setdefault(table, []).append(drop)

    def token(self) -> int | None:
        """Taken before a read that may be kept; None: keep nothing (not listening)."""
        return self._generation if self.listening else None

    def keeps(self, token: int | None) -> bool:
        """Whether a read that started at `token` may be kept: nothing was heard meanwhile."""
        return token is not None and self.listening and token == self._generation

    def changed(self, table: str, key: int) -> None:
        self._generation += 1
        for drop in self._drops.get(table, ()):
            drop(key)

    def heard(self, text: str) -> None:
        """An announcement, "<table>:<key>"; one it cannot read drops every copy."""
        table, _, key = text.partition(":")
        try:
            number = int(key)
        except ValueError:
            self._drop_all()
            return
        self.changed(table, number)

    def deaf(self) -> None:
        """The listening connection is gone: changes may go unheard, so nothing is kept."""
        self.listening = False
        self._drop_all()

    def hearing(self) -> None:
        """Listening (again): what changed while deaf was never kept, and reads from before
        the LISTEN are not kept either."""
        self._drop_all()
        self.listening = True

    def _drop_all(self) -> None:
        self._generation += 1
        for drops in self._drops.values():
            for drop in drops:
                drop(None)
