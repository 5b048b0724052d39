"""Quiz file formats teachers already have (GIFT, Aiken, a CSV layout) <-> neutral drafts.

Every parser is `parse(text, name, lang, limits) -> ParseResult` and every writer is
`write(drafts) -> str`: pure functions over text, safe on untrusted input (see `draft.Limits`),
so the command line's import and export and a later in-chat upload share them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.content.formats import aiken, csv_layout, gift
from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    DraftOption,
    DraftQuestion,
    DraftQuiz,
    FormatProblem,
    Limits,
    ParseResult,
)

Parser = Callable[[str, str, str, Limits], ParseResult]
Writer = Callable[[Sequence[DraftQuiz]], str]

PARSERS: dict[str, Parser] = {"gift": gift.parse, "aiken": aiken.parse, "csv": csv_layout.parse}
WRITERS: dict[str, Writer] = {"gift": gift.write, "aiken": aiken.write, "csv": csv_layout.write}


def parse(
    fmt: str, text: str, name: str = "quiz", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    return PARSERS[fmt](text, name, lang, limits)


def write(fmt: str, quizzes: Sequence[DraftQuiz]) -> str:
    return WRITERS[fmt](quizzes)


__all__ = [
    "DEFAULT_LIMITS",
    "PARSERS",
    "WRITERS",
    "DraftOption",
    "DraftQuestion",
    "DraftQuiz",
    "FormatProblem",
    "Limits",
    "ParseResult",
    "parse",
    "write",
]
