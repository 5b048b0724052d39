"""Anki packages written by hand, as Anki itself lays them out, for the importer's tests.

Not written by our exporter nor by genanki: the SQL below follows Anki's published schema,
github.com/ankitects/anki rslib/src/storage/schema11.sql (legacy collection: col, notes, cards,
revlog, graves) and rslib/src/storage/upgrades/schema15_upgrade.sql (schema 18's notetypes,
fields, templates, decks tables); the package members follow
rslib/src/import_export/package/{meta.rs,media.rs,colpkg/export.rs} and
proto/anki/import_export.proto (PackageMetadata, MediaEntries). Note types and decks as Anki's
own JSON (`col.models`, `col.decks`) carry them, reduced to the keys a reader needs.
"""

from __future__ import annotations

import io
import json
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import zstandard

# rslib/src/storage/schema11.sql (indexes left out: a reader needs none).
SCHEMA11 = """
create table col (id integer primary key, crt integer not null, mod integer not null,
  scm integer not null, ver integer not null, dty integer not null, usn integer not null,
  ls integer not null, conf text not null, models text not null, decks text not null,
  dconf text not null, tags text not null);
create table notes (id integer primary key, guid text not null, mid integer not null,
  mod integer not null, usn integer not null, tags text not null, flds text not null,
  sfld integer not null, csum integer not null, flags integer not null, data text not null);
create table cards (id integer primary key, nid integer not null, did integer not null,
  ord integer not null, mod integer not null, usn integer not null, type integer not null,
  queue integer not null, due integer not null, ivl integer not null, factor integer not null,
  reps integer not null, lapses integer not null, left integer not null, odue integer not null,
  odid integer not null, flags integer not null, data text not null);
create table revlog (id integer primary key, cid integer not null, usn integer not null,
  ease integer not null, ivl integer not null, lastIvl integer not null,
  factor integer not null, time integer not null, type integer not null);
create table graves (usn integer not null, oid integer not null, type integer not null);
"""
# rslib/src/storage/upgrades/schema15_upgrade.sql (schema 18 keeps these tables). `collate
# unicase` is Anki's own collation: a reader must cope with it.
SCHEMA18 = """
create table fields (ntid integer not null, ord integer not null,
  name text not null collate unicase, config blob not null, primary key (ntid, ord))
  without rowid;
create table templates (ntid integer not null, ord integer not null,
  name text not null collate unicase, mtime_secs integer not null, usn integer not null,
  config blob not null, primary key (ntid, ord)) without rowid;
create table notetypes (id integer not null primary key, name text not null collate unicase,
  mtime_secs integer not null, usn integer not null, config blob not null);
create table decks (name text not null primary key collate unicase, id integer not null,
  mtime_secs integer not null, usn integer not null, common bytes not null,
  kind bytes not null);
"""

BASIC, REVERSED, CLOZE, VOCAB = 1342697561419, 1342697561420, 1342697561421, 1342697561422
DEFAULT_DECK, VERBS_DECK = 1, 1600000000001
STOCK_TYPES = {
    BASIC: ("Basic", 0, ["Front", "Back"], 1),
    REVERSED: ("Basic (and reversed card)", 0, ["Front", "Back"], 2),
    CLOZE: ("Cloze", 1, ["Text", "Back Extra"], 1),
    VOCAB: ("Vocabulary", 0, ["Word", "Meaning", "Example"], 1),
}


@dataclass
class HandNote:
    notetype: int
    fields: list[str] | bytes  # bytes: the raw `flds` column (to write invalid UTF-8)
    tags: str = ""
    deck: int = DEFAULT_DECK
    guid: str = ""
    reviewed: bool = False


@dataclass
class HandDeck:
    notes: list[HandNote]
    decks: dict[int, str] = field(default_factory=lambda: {DEFAULT_DECK: "Default"})
    media: dict[str, bytes] = field(default_factory=dict)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes | int) -> bytes:
    """One protobuf field: a varint (int) or a length-delimited one (bytes)."""
    if isinstance(payload, int):
        return _varint(number << 3) + _varint(payload)
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def collection(deck: HandDeck, schema: int = 11) -> bytes:
    """The SQLite file: schema 11 (note types and decks as JSON in `col`) or 18 (tables)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "collection"
        db = sqlite3.connect(path)
        db.executescript(SCHEMA11)
        models = {str(i): {"id": i, "name": name, "type": kind,
                           "flds": [{"name": f, "ord": n} for n, f in enumerate(fields)],
                           "tmpls": [{"name": f"Card {n + 1}", "ord": n} for n in range(cards)]}
                  for i, (name, kind, fields, cards) in STOCK_TYPES.items()}  # fmt: skip
        decks = {str(i): {"id": i, "name": name} for i, name in deck.decks.items()}
        if schema == 18:
            db.create_collation("unicase", lambda a, b: (a > b) - (a < b))
            db.executescript(SCHEMA18)
            for ntid, (name, kind, fields, cards) in STOCK_TYPES.items():
                config = _field(1, kind) if kind else b""  # Notetype.Config.kind
                db.execute("insert into notetypes values (?, ?, 0, 0, ?)", (ntid, name, config))
                for n, fname in enumerate(fields):
                    db.execute("insert into fields values (?, ?, ?, x'')", (ntid, n, fname))
                for n in range(cards):
                    db.execute("insert into templates values (?, ?, ?, 0, 0, x'')",
                               (ntid, n, f"Card {n + 1}"))  # fmt: skip
            for i, name in deck.decks.items():
                db.execute("insert into decks values (?, ?, 0, 0, x'', x'')",
                           (name.replace("::", "\x1f"), i))  # fmt: skip
            models, decks = {}, {}
        db.execute(
            "insert into col values (1, 0, 0, 0, ?, 0, 0, 0, '{}', ?, ?, '{}', '{}')",
            (schema, json.dumps(models), json.dumps(decks)),
        )
        card_id = 1_700_000_000_000
        for i, note in enumerate(deck.notes):
            nid = 1_600_000_000_000 + i
            flds = note.fields if isinstance(note.fields, bytes) else "\x1f".join(note.fields)
            db.execute(
                "insert into notes values (?, ?, ?, 0, -1, ?, ?, '', 0, 0, '')",
                (nid, note.guid or f"g{i}", note.notetype, f" {note.tags} ", flds),
            )
            for ord_ in range(STOCK_TYPES[note.notetype][3]):
                card_id += 1
                db.execute(
                    "insert into cards values (?, ?, ?, ?, 0, -1, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0,"
                    " 0, '')",
                    (card_id, nid, note.deck, ord_, 2 if note.reviewed else 0),
                )
                if note.reviewed:
                    db.execute("insert into revlog values (?, ?, -1, 3, 1, 0, 2500, 6000, 0)",
                               (card_id, card_id))  # fmt: skip
        db.commit()
        db.close()
        return path.read_bytes()


def legacy_apkg(deck: HandDeck, member: str = "collection.anki2") -> bytes:
    """An .apkg as Anki 2.1 before 2.1.50 wrote it: the collection, a JSON media map, and each
    media file as the member named by its number."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, collection(deck))
        names = list(deck.media)
        archive.writestr("media", json.dumps({str(i): n for i, n in enumerate(names)}))
        for i, name in enumerate(names):
            archive.writestr(str(i), deck.media[name])
    return out.getvalue()


def latest_apkg(deck: HandDeck) -> bytes:
    """An .apkg as Anki 2.1.50 and later write it: `meta` (version 3), the schema-18
    collection zstd-compressed as collection.anki21b, a dummy collection.anki2, the media list
    as zstd-compressed protobuf MediaEntries, and each media file zstd-compressed."""
    zstd = zstandard.ZstdCompressor()
    out = io.BytesIO()
    dummy = HandDeck([HandNote(BASIC, ["Please update to the latest Anki version", ""])])
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("meta", _field(1, 3))
        archive.writestr("collection.anki21b", zstd.compress(collection(deck, schema=18)))
        archive.writestr("collection.anki2", collection(dummy))
        entries = b"".join(
            _field(1, _field(1, name.encode()) + _field(2, len(data)) + _field(3, b"\x00" * 20))
            for name, data in deck.media.items()
        )
        archive.writestr("media", zstd.compress(entries))
        for i, data in enumerate(deck.media.values()):
            archive.writestr(str(i), zstd.compress(data))
    return out.getvalue()
