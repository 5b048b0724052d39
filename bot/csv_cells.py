"""Every CSV quizbot writes (`quizbot export`, the dashboard's files, `quizbot content export
--format csv`), through one writer that a spreadsheet opens safely.

A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a formula by
spreadsheets (OWASP's "CSV injection"): a member named `=HYPERLINK(...)`, or a learner who types
it as an answer, would put a live link or a command in a teacher's sheet. Such a text is written
with an apostrophe in front ("'=HYPERLINK(...)"), which spreadsheets show as text.

The rule is reversible, so a CSV that quizbot reads back (the content layout) gets exactly the
text that was written: a text that already starts with apostrophes before one of those
characters ("'=x") gets one more ("''=x"), and `restored` takes one off. Numbers are ours
(ids, counts, milliseconds) and are written as they are, a negative one too.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import TextIO

# Apostrophes (none or more) then a character that starts a formula.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")


def neutral(value: object) -> object:
    """`value` as a spreadsheet may read it: a text it would run gets an apostrophe first."""
    if isinstance(value, str) and _FORMULA.match(value):
        return "'" + value
    return value


def restored(cell: str) -> str:
    """A cell of a CSV written here, as it was before `neutral` (other cells unchanged)."""
    return cell[1:] if _FORMULA.match(cell) and cell.startswith("'") else cell


class SheetWriter:
    """`csv.writer` with every cell through `neutral`."""

    def __init__(self, out: TextIO, *, lineterminator: str = "\r\n") -> None:
        self._writer = csv.writer(out, lineterminator=lineterminator)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([neutral(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def sheet(
    head: Sequence[str], rows: Iterable[Iterable[object]], *, lineterminator: str = "\r\n"
) -> str:
    """A whole CSV file as text: the header row, then `rows`."""
    out = io.StringIO()
    writer = SheetWriter(out, lineterminator=lineterminator)
    writer.writerow(head)
    writer.writerows(rows)
    return out.getvalue()
