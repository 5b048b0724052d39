"""CSV files of the group page: what a member typed as their name never runs as a formula."""

from __future__ import annotations

import csv
import io
from zoneinfo import ZoneInfo

from bot.core.standings import Placed, Tally
from bot.store.analytics import GroupTotals
from bot.usecases.dashboard import GroupPage
from bot.web import csv_files


def test_member_names_cannot_become_spreadsheet_formulas() -> None:
    names = ['=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)", "Awa", "Ndèye = best"]
    page = GroupPage(
        chat_id=-1,
        settings=None,
        timezone=ZoneInfo("UTC"),
        totals=GroupTotals(0, 0, 0, 0, 0),
        weeks=[],
        hardest=[],
        standings=[Placed(1, Tally(i + 1, n, 0, 0, 0), True) for i, n in enumerate(names)],
        upcoming=[],
    )
    rows = list(csv.DictReader(io.StringIO(csv_files.standings(page, "en"))))
    assert [r["name"] for r in rows] == [
        "'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@SUM(A1)", "Awa", "Ndèye = best"
    ]  # fmt: skip
    assert [r["user_id"] for r in rows] == ["1", "2", "3", "4", "5", "6"]
