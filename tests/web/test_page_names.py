"""The group page isolates members' names and the group's title, as the chats do: an unclosed
right-to-left override in a name cannot reorder the page's text around it."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.core.bidi import FSI, PDI
from bot.core.standings import Placed, Tally
from bot.i18n import translator
from bot.store import GroupSettings
from bot.store.analytics import GroupTotals
from bot.usecases.dashboard import GroupPage
from bot.web import group_page

RLO = "\u202e"


def test_names_and_title_are_isolated_on_the_group_page() -> None:
    settings = GroupSettings(-1, "Club" + RLO, "en", 20, True, "UTC", True)
    page = GroupPage(
        chat_id=-1,
        settings=settings,
        timezone=ZoneInfo("UTC"),
        totals=GroupTotals(1, 2, 2, 1, 1),
        weeks=[],
        hardest=[],
        standings=[
            Placed(1, Tally(1, "Eve" + RLO, 1, 1, 1, 2)),
            Placed(2, Tally(2, "Sam", 1, 1, 1, 2)),
        ],
        upcoming=[],
    )
    links = {
        section: f"/{section}.csv" for section in ("weeks", "questions", "standings", "schedules")
    }
    html = group_page.render(translator("en"), page, "", links)
    assert RLO not in html
    for name in ("Eve", "Sam", "Club"):
        assert f"{FSI}{name}{PDI}" in html


def test_a_large_groups_standings_show_the_first_hundred_places_and_say_how_many_more() -> None:
    """Thousands of members made a page thousands of rows long on a phone; the CSV holds all."""
    page = GroupPage(
        chat_id=-1,
        settings=None,
        timezone=ZoneInfo("UTC"),
        totals=GroupTotals(1, 1, 250, 250, 1),
        weeks=[],
        hardest=[],
        standings=[Placed(n, Tally(n, f"M{n}", 1, 1, 1, 1)) for n in range(1, 251)],
        upcoming=[],
    )
    tr = translator("fr")
    html = group_page.render(tr, page, "", {"standings": "/standings.csv"})
    assert html.count('data-key="right-') == group_page.STANDINGS_SHOWN == 100
    assert tr.ngettext("…and {n} more player", "…and {n} more players", 150) in html
