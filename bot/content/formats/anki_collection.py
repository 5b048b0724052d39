"""An Anki collection (SQLite) read without trusting it: its note types, decks and notes.

Two schemas, from Anki's rslib/src/storage (github.com/ankitects/anki): the legacy schema 11
(`schema11.sql`: tables col, notes, cards, revlog, graves; note types and decks as JSON in
`col.models` and `col.decks`), which .apkg files written for older versions (and genanki) hold,
and schema 18 (`upgrades/schema15_upgrade.sql` on: tables notetypes, fields, templates and
decks, their config as protobuf), which `collection.anki21b` holds.

The file is a copy in a private temporary folder, opened read-only; before any query the
connection refuses everything but reading (an authorizer allows SELECT, reading columns and
plain functions only), trusts nothing in the schema (`trusted_schema=OFF`), caps the size of
any value, and a progress handler aborts a query that runs past a deadline. The tables named
must be tables (a view could hide a costly query). Text is read as bytes and decoded here, so
a note with invalid UTF-8 is reported by its position instead of breaking the read.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.content.formats import protobuf_wire
from bot.content.problems import N_, Msg

SQLITE_MAGIC = b"SQLite format 3\x00"
FIELD_SEPARATOR = "\x1f"
DEFAULT_DECK = 1  # Anki's "Default" deck (its name is translated: the file's name is used)
_DEADLINE_SECONDS = 3.0
_MAX_VALUE_BYTES = 4 * 1024 * 1024
_REQUIRED = ("col", "notes", "cards")
_ALLOWED = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION})
_NOTES = "SELECT id, guid, mid, tags, flds FROM notes ORDER BY id LIMIT ?"


class CollectionRefused(ValueError):
    """The collection cannot be read; `message` is a `problems.Msg` a chat can translate."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class NoteType:
    id: int
    name: str
    cloze: bool
    fields: tuple[str, ...]
    templates: int  # cards made per note (a Basic-and-reversed type has 2)


@dataclass(frozen=True, slots=True)
class Note:
    position: int  # 1-based, by creation (note id): what a problem names instead of a line
    guid: str
    notetype: int
    tags: tuple[str, ...]
    fields: tuple[str, ...] | None  # None: not valid UTF-8
    deck: int  # the deck of its first card (a filtered deck's card: its home deck)


@dataclass(slots=True)
class Collection:
    notetypes: dict[int, NoteType] = field(default_factory=dict)
    decks: dict[int, str] = field(default_factory=dict)  # id -> name, "Parent::Child"
    notes: list[Note] = field(default_factory=list)
    more_notes: bool = False  # the collection has more notes than were read
    scheduled: bool = False  # some card was reviewed (history the import leaves behind)


def read_collection(data: bytes, max_notes: int) -> Collection:
    """The collection's note types, decks and first `max_notes` notes; `CollectionRefused`
    when it is no SQLite database, is damaged, or lacks Anki's tables."""
    if not data.startswith(SQLITE_MAGIC):
        raise CollectionRefused(Msg(N_("the Anki collection inside is not an SQLite database")))
    if data[18:20] == b"\x02\x02":  # WAL mode: our copy has no -wal file; read it as rollback
        data = data[:18] + b"\x01\x01" + data[20:]
    with tempfile.TemporaryDirectory(prefix="quizbot-anki-") as folder:
        path = Path(folder) / "collection.sqlite3"
        path.write_bytes(data)
        try:
            connection = _connect(path)
        except sqlite3.Error:
            raise _damaged() from None
        try:
            return _read(connection, max_notes)
        except CollectionRefused:
            raise
        except (
            sqlite3.Error,
            ValueError,
            TypeError,
            KeyError,
            AttributeError,
            RecursionError,
            OverflowError,
        ):
            raise _damaged() from None
        finally:
            connection.close()


def _damaged() -> CollectionRefused:
    return CollectionRefused(Msg(N_("the Anki collection is damaged or not one Anki wrote")))


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None)
    connection.text_factory = bytes
    connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE_BYTES)
    connection.execute("PRAGMA trusted_schema = OFF")
    connection.execute("PRAGMA query_only = ON")
    # Anki declares names `collate unicase` (a collation of its own): one that compares as it.
    connection.create_collation("unicase", _unicase)
    deadline = time.monotonic() + _DEADLINE_SECONDS
    connection.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    connection.set_authorizer(
        lambda action, *_: sqlite3.SQLITE_OK if action in _ALLOWED else sqlite3.SQLITE_DENY
    )
    return connection


def _unicase(a: str, b: str) -> int:
    left, right = a.casefold(), b.casefold()
    return (left > right) - (left < right)


def _read(connection: sqlite3.Connection, max_notes: int) -> Collection:
    tables = {
        _text(name): _text(kind)
        for name, kind in connection.execute("SELECT name, type FROM sqlite_master")
    }
    if any(tables.get(name) != "table" for name in _REQUIRED):
        raise CollectionRefused(
            Msg(N_("the SQLite database inside has no Anki notes (tables col, notes, cards)"))
        )
    collection = Collection()
    if tables.get("notetypes") == "table" and tables.get("fields") == "table":
        _schema18(connection, collection, tables)
    else:
        _schema11(connection, collection)
    rows = connection.execute(_NOTES, (max_notes + 1,)).fetchall()
    collection.more_notes = len(rows) > max_notes
    decks = _note_decks(connection, {row[0] for row in rows[:max_notes]})
    for position, (note_id, guid, notetype, tags, flds) in enumerate(rows[:max_notes], 1):
        collection.notes.append(_note(position, note_id, guid, notetype, tags, flds, decks))
    collection.scheduled = _scheduled(connection, tables)
    return collection


def _note(
    position: int, note_id: int, guid: Any, notetype: Any, tags: Any, flds: Any,
    decks: dict[int, int],
) -> Note:  # fmt: skip
    try:
        fields: tuple[str, ...] | None = tuple(_strict(flds).split(FIELD_SEPARATOR))
    except UnicodeDecodeError:
        fields = None
    return Note(
        position,
        _text(guid),
        int(notetype) if isinstance(notetype, int) else 0,
        tuple(_text(tags).split()),
        fields,
        decks.get(note_id, DEFAULT_DECK),
    )


def _note_decks(connection: sqlite3.Connection, note_ids: set[int]) -> dict[int, int]:
    """note id -> the deck of its first card; one pass over the cards, kept for read notes."""
    first: dict[int, tuple[int, int]] = {}
    rows = connection.execute("SELECT nid, ord, did, odid FROM cards")
    for nid, ord_, did, odid in rows:
        if nid in note_ids and (nid not in first or ord_ < first[nid][0]):
            first[nid] = (ord_, odid or did)
    return {nid: deck for nid, (_, deck) in first.items()}


def _schema11(connection: sqlite3.Connection, collection: Collection) -> None:
    row = connection.execute("SELECT models, decks FROM col LIMIT 1").fetchone()
    if row is None:
        raise ValueError("no col row")
    models, decks = (json.loads(_strict(value)) for value in row)
    if not isinstance(models, dict) or not isinstance(decks, dict):
        raise ValueError("col.models or col.decks is not a JSON object")
    for key, model in models.items():
        if not isinstance(model, dict):
            continue
        names = [str(f.get("name", "")) for f in sorted(
            (f for f in model.get("flds") or [] if isinstance(f, dict)),
            key=lambda f: int(f.get("ord", 0)))]  # fmt: skip
        notetype = NoteType(int(key), str(model.get("name", "")), model.get("type") == 1,
                            tuple(names), len(model.get("tmpls") or []))  # fmt: skip
        collection.notetypes[notetype.id] = notetype
    for key, deck in decks.items():
        if isinstance(deck, dict):
            collection.decks[int(key)] = str(deck.get("name", ""))


def _schema18(
    connection: sqlite3.Connection, collection: Collection, tables: dict[str, str]
) -> None:
    fields: dict[int, list[tuple[int, str]]] = {}
    for ntid, ord_, name in connection.execute("SELECT ntid, ord, name FROM fields"):
        fields.setdefault(ntid, []).append((ord_, _text(name)))
    templates: dict[int, int] = {}
    if tables.get("templates") == "table":
        for ntid, count in connection.execute("SELECT ntid, count(*) FROM templates GROUP BY 1"):
            templates[ntid] = count
    for ntid, name, config in connection.execute("SELECT id, name, config FROM notetypes"):
        try:  # Notetype.Config: Kind kind = 1 (KIND_NORMAL 0, KIND_CLOZE 1)
            cloze = protobuf_wire.varint_field(bytes(config or b""), 1) == 1
        except protobuf_wire.NotProtobuf:
            cloze = False
        names = tuple(n for _, n in sorted(fields.get(ntid, [])))
        collection.notetypes[ntid] = NoteType(ntid, _text(name), cloze, names,
                                              templates.get(ntid, 1))  # fmt: skip
    if tables.get("decks") == "table":
        for deck_id, name in connection.execute("SELECT id, name FROM decks"):
            collection.decks[deck_id] = _text(name).replace(FIELD_SEPARATOR, "::")


def _scheduled(connection: sqlite3.Connection, tables: dict[str, str]) -> bool:
    if (
        tables.get("revlog") == "table"
        and connection.execute("SELECT 1 FROM revlog LIMIT 1").fetchone()
    ):
        return True
    return connection.execute("SELECT 1 FROM cards WHERE type != 0 LIMIT 1").fetchone() is not None


def _strict(value: Any) -> str:
    """A text column read as bytes, decoded strictly (UnicodeDecodeError on invalid UTF-8)."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    return "" if value is None else str(value)


def _text(value: Any) -> str:
    """A name or tag column: invalid UTF-8 shown as U+FFFD (never a reason to stop)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)
