"""`RowChanges` (issue 32), the rule every cache of a `users` or `groups` row follows: a read is
kept only if no change was heard while it was in flight, and nothing is kept while changes of
other processes may go unheard."""

from __future__ import annotations

from bot.store.row_changes import GROUPS, USERS, RowChanges


def _following(changes: RowChanges) -> dict[str, list[int | None]]:
    dropped: dict[str, list[int | None]] = {USERS: [], GROUPS: []}
    changes.follow(USERS, dropped[USERS].append)
    changes.follow(GROUPS, dropped[GROUPS].append)
    return dropped


def test_a_read_that_overlapped_a_change_is_not_kept() -> None:
    changes = RowChanges()
    before = changes.token()
    assert changes.keeps(before)
    changes.changed(GROUPS, -5)  # any change: the read may predate it
    assert not changes.keeps(before)
    assert changes.keeps(changes.token())


def test_a_change_drops_its_table_s_copies_only() -> None:
    changes = RowChanges()
    dropped = _following(changes)
    changes.heard("u:7")
    changes.heard("g:-100123")
    assert dropped == {USERS: [7], GROUPS: [-100123]}
    changes.heard("what?")  # unreadable: every copy goes
    assert dropped == {USERS: [7, None], GROUPS: [-100123, None]}


def test_across_processes_nothing_is_kept_until_listening_nor_while_deaf() -> None:
    changes = RowChanges(across_processes=True)
    dropped = _following(changes)
    assert not changes.keeps(changes.token())  # not listening yet
    changes.hearing()
    during = changes.token()
    assert changes.keeps(during)
    changes.deaf()  # the listening connection dropped
    assert dropped[USERS][-1] is None and dropped[GROUPS][-1] is None
    assert not changes.keeps(during) and not changes.keeps(changes.token())
    deaf = changes.token()
    changes.hearing()  # a read from before the LISTEN may have missed a change
    assert not changes.keeps(deaf)
    assert changes.keeps(changes.token())


def test_one_process_hears_all_it_needs_from_the_start() -> None:
    assert RowChanges().keeps(RowChanges().token())
