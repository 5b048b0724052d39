"""Quiz file formats teachers already have (GIFT, Aiken, a CSV layout; Moodle XML, QTI
packages, Anki decks) <-> neutral drafts.

Text formats: `parse(text, name, lang, limits) -> ParseResult` and `write(drafts) -> str`.
Binary formats (a zip, an XML file whose encoding its own header declares, an Anki collection):
`parse(data, name, lang, limits) -> ParseResult` and `write(drafts) -> bytes`, registered in
`BINARY_PARSERS` / `BINARY_WRITERS`. All are pure functions, safe on untrusted input (see
`draft.Limits`), so the command line's import and export and an in-chat upload share them.
`parse_bytes` is the one entry for a file's bytes: text formats are decoded as strict UTF-8
there, binary ones read the bytes themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.content.formats import (
    aiken,
    anki,
    anki_export,
    csv_layout,
    gift,
    gift_writer,
    moodle,
    qti,
)
from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    DraftOption,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
    FormatProblem,
    Limits,
    ParseResult,
)

Parser = Callable[[str, str, str, Limits], ParseResult]
Writer = Callable[[Sequence[DraftQuiz]], str]

BinaryParser = Callable[[bytes, str, str, Limits], ParseResult]
BinaryWriter = Callable[[Sequence[DraftQuiz]], bytes]

PARSERS: dict[str, Parser] = {"gift": gift.parse, "aiken": aiken.parse, "csv": csv_layout.parse}
WRITERS: dict[str, Writer] = {
    "gift": gift_writer.write,
    "aiken": aiken.write,
    "csv": csv_layout.write,
}
# Filled by the Moodle XML, QTI and Anki modules (one line each below as they land).
BINARY_PARSERS: dict[str, BinaryParser] = {}
BINARY_WRITERS: dict[str, BinaryWriter] = {}
BINARY_PARSERS["moodle"], BINARY_WRITERS["moodle"] = moodle.parse, moodle.write
BINARY_PARSERS["qti"], BINARY_WRITERS["qti"] = qti.parse, qti.write
BINARY_PARSERS["anki"], BINARY_WRITERS["anki"] = anki.parse, anki_export.write


class NotText(ValueError):
    """A text format's file is not UTF-8; `start` is the first bad byte's offset."""

    def __init__(self, start: int) -> None:
        super().__init__(start)
        self.start = start


def formats_in() -> tuple[str, ...]:
    return (*PARSERS, *BINARY_PARSERS)


def formats_out() -> tuple[str, ...]:
    return (*WRITERS, *BINARY_WRITERS)


def parse_bytes(
    fmt: str, data: bytes, name: str = "quiz", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    """A file's bytes in any format; `NotText` when a text format's file is not UTF-8."""
    if fmt in BINARY_PARSERS:
        return BINARY_PARSERS[fmt](data, name, lang, limits)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotText(exc.start) from None
    return PARSERS[fmt](text, name, lang, limits)


def write_bytes(fmt: str, quizzes: Sequence[DraftQuiz]) -> bytes:
    """A file's bytes in any format (text formats as UTF-8)."""
    if fmt in BINARY_WRITERS:
        return BINARY_WRITERS[fmt](quizzes)
    return WRITERS[fmt](quizzes).encode("utf-8")


def parse(
    fmt: str, text: str, name: str = "quiz", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    return PARSERS[fmt](text, name, lang, limits)


def write(fmt: str, quizzes: Sequence[DraftQuiz]) -> str:
    return WRITERS[fmt](quizzes)


__all__ = [
    "BINARY_PARSERS",
    "BINARY_WRITERS",
    "DEFAULT_LIMITS",
    "PARSERS",
    "WRITERS",
    "DraftOption",
    "DraftPicture",
    "DraftQuestion",
    "DraftQuiz",
    "FormatProblem",
    "Limits",
    "NotText",
    "ParseResult",
    "formats_in",
    "formats_out",
    "parse",
    "parse_bytes",
    "write",
    "write_bytes",
]
