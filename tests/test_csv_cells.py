"""The one CSV writer: no cell a spreadsheet would run, every text read back as written, and no
other CSV writer in the project."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.csv_cells import neutral, restored, sheet

BOT = Path(__file__).resolve().parents[1] / "bot"
STARTS = ("=", "+", "-", "@", "\t", "\r")


@given(st.text(alphabet=st.sampled_from("=+-@'\t\rab 1"), max_size=8) | st.text(max_size=20))
def test_neutral_cells_run_nothing_and_restore_exactly(text: str) -> None:
    cell = neutral(text)
    assert isinstance(cell, str) and not cell.startswith(STARTS)
    assert restored(cell) == text


def test_numbers_and_plain_text_are_written_as_they_are() -> None:
    assert neutral(-3) == -3 and neutral(0.5) == 0.5
    assert neutral("Ndèye = best") == "Ndèye = best" and neutral("it's") == "it's"


def test_a_sheet_reads_back_with_the_csv_module() -> None:
    text = sheet(("name", "n"), [("=1+1", -1), ('a "quoted", text', 2)])
    assert list(csv.reader(io.StringIO(text))) == [
        ["name", "n"], ["'=1+1", "-1"], ['a "quoted", text', "2"]
    ]  # fmt: skip


def test_every_csv_the_project_writes_goes_through_the_one_writer() -> None:
    writers = re.compile(r"\bcsv\.(writer|DictWriter)\b")
    offenders = [
        str(path.relative_to(BOT))
        for path in sorted(BOT.rglob("*.py"))
        if path.name != "csv_cells.py" and writers.search(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "write CSV with bot.csv_cells.SheetWriter or sheet()"
