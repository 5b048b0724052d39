"""`RowChanges` (issue 32), the rule every cache of a `users` or `groups` row follows: a read is
kept only if no change was heard while it was in flight, and nothing is kept while changes of
other processes may go unheard; and every store function that changes such a row says so."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import bot.store
from bot.store.row_changes import GROUPS, USERS, RowChanges

STORE = Path(bot.store.__file__).parent


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


def _kept_row_writes() -> list[tuple[str, str, bool]]:
    """(file, function, announces) for every function of the store whose SQL writes a kept
    row: any write of `groups`, a write of `users` that names `language` or `timezone` (a
    learner's choices) or deletes the row. Read with `ast`; nothing is run. SQL kept in a
    module-level constant is not seen (the answers' name upserts, which change neither choice)."""
    found = []
    for path in sorted(STORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            inner = {id(n) for f in ast.walk(fn) if f is not fn and _is_fn(f) for n in ast.walk(f)}
            own = [n for n in ast.walk(fn) if id(n) not in inner]
            if any(_writes_kept_row(_text(n)) for n in own):
                announces = any(isinstance(n, ast.Attribute) and n.attr == "announce" for n in own)
                found.append((path.relative_to(STORE).as_posix(), fn.name, announces))
    return found


def _is_fn(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)


def _text(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_text(part) for part in node.values)
    return ""


def _writes_kept_row(sql: str) -> bool:
    if re.search(r"\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+groups\b", sql, re.IGNORECASE):
        return True
    users = re.search(r"\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+users\b", sql, re.IGNORECASE)
    return users is not None and (
        users.group(1).upper().startswith("DELETE")
        or re.search(r"\b(language|timezone)\b", sql) is not None
    )


def test_every_write_of_a_kept_row_announces_it() -> None:
    """A new store function that changes a learner's choices or a group's row without
    `conn.announce` would leave every other worker's copy stale: it fails here."""
    writes = _kept_row_writes()
    assert [(f, name) for f, name, announces in writes if not announces] == []
    assert sorted((f, name) for f, name, _ in writes) == [  # the scan sees them all
        ("forget.py", "erase"),
        ("groups.py", "update"),  # update_group
        ("groups.py", "update"),  # left
        ("groups.py", "update"),  # migrate
        ("groups.py", "upsert"),  # ensure_group
        ("learners.py", "update"),  # set_language
        ("learners.py", "update"),  # set_timezone
        ("uploads.py", "update"),  # gone
    ]
