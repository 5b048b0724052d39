"""Hostile Anki packages: each refused (or its bad part left out) with a message, nothing
raised; the rest of a file with one bad note still comes in. How long each takes is measured
in BENCHMARKS.md (Anki import), never asserted here."""

from __future__ import annotations

import io
import sqlite3
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import zstandard

from bot.content.formats import Limits, ParseResult, parse_bytes
from tests.content.anki_decks import (
    BASIC,
    HandDeck,
    HandNote,
    collection,
    latest_apkg,
    legacy_apkg,
)


def zipped(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


DEFAULT = Limits()


def read(data: bytes, limits: Limits = DEFAULT) -> ParseResult:
    return parse_bytes("anki", data, "hostile", "en", limits)


def refusal(result: ParseResult) -> str:
    assert result.quizzes == []
    (problem,) = result.problems
    assert problem.skipped and problem.line == 1
    return str(problem.message)


def with_view_for_notes() -> bytes:
    """A database whose `notes` is a view (a costly query could hide in one)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c"
        db = sqlite3.connect(path)
        db.executescript(
            "create table col (models text, decks text); create table cards (nid, ord, did,"
            " odid, type); create view notes as with recursive r(x) as (select 1 union all "
            "select x + 1 from r) select x as id, '' as guid, 0 as mid, '' as tags, '' as flds"
            " from r;"
        )
        db.close()
        return path.read_bytes()


def huge_deck() -> HandDeck:
    """A valid collection of 21 MB, made large by one long field (it compresses well: the
    package stays small)."""
    return HandDeck([HandNote(BASIC, ["front", "abc" * 7_000_000])])


HOSTILE: dict[str, tuple[Callable[[], bytes], Limits, str]] = {
    "not a zip": (lambda: b"PK\x03\x04 not really", Limits(), "not a zip archive"),
    "zip bomb": (
        lambda: zipped({"collection.anki2": b"\x00" * 40_000_000}),
        Limits(),
        "inflates to 40000000 bytes",
    ),
    "zstd bomb": (
        lambda: zipped(
            {
                "meta": b"\x08\x03",
                "collection.anki21b": zstandard.ZstdCompressor().compress(b"\x00" * 200_000_000),
            },
            zipfile.ZIP_STORED,
        ),
        Limits(),
        "inflates past",
    ),
    "path traversal": (
        lambda: zipped({"../collection.anki2": collection(HandDeck([]))}),
        Limits(),
        "unsafe member name",
    ),
    "no collection": (lambda: zipped({"media": b"{}"}), Limits(), "no Anki collection"),
    "not SQLite": (
        lambda: zipped({"collection.anki2": b"<html>hello</html>"}),
        Limits(),
        "not an SQLite database",
    ),
    "damaged SQLite": (
        lambda: zipped({"collection.anki2": collection(HandDeck([]))[:100] + b"\xff" * 5000}),
        Limits(),
        "damaged",
    ),
    "a view for notes": (
        lambda: zipped({"collection.anki2": with_view_for_notes()}),
        Limits(),
        "no Anki notes",
    ),
    "huge database": (lambda: legacy_apkg(huge_deck()), Limits(), "inflates to 2104"),
    "huge database, zstd": (lambda: latest_apkg(huge_deck()), Limits(), "inflates past 16777216"),
    "unknown version": (
        lambda: zipped({"meta": b"\x08\x07", "collection.anki2": collection(HandDeck([]))}),
        Limits(),
        "version (7) is unknown",
    ),
    "too big a file": (lambda: b"\x00" * 2_000_000, Limits(), "at most 1000000 are accepted"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_package_is_refused_with_a_message(name: str) -> None:
    build, limits, said = HOSTILE[name]
    assert said in refusal(read(build(), limits))


def test_a_note_with_invalid_utf8_is_left_out_and_the_rest_kept() -> None:
    deck = HandDeck([HandNote(BASIC, b"\xff\xfe caf\xe9\x1fback"), HandNote(BASIC, ["ok", "y"])])
    result = read(legacy_apkg(deck))
    assert [q.prompt for q in result.quizzes[0].questions] == ["ok"]
    (problem,) = result.problems
    assert (problem.line, problem.skipped) == (1, True)
    assert problem.message == "a field of this note is not valid UTF-8: left out"


def test_ten_thousand_notes_stop_at_the_limit() -> None:
    deck = HandDeck([HandNote(BASIC, [f"front {i}", f"back {i}"]) for i in range(10_000)])
    result = read(legacy_apkg(deck))
    assert len(result.quizzes[0].questions) == 1_000
    (problem,) = result.problems
    assert (problem.line, problem.skipped) == (1_001, True)
    assert problem.message == (
        "too many notes: at most 1000 flashcards are read; the rest is left out"
    )
