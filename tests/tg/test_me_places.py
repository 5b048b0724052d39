"""/me names a shared place as /top does ("2="), in every language: the two screens of one
group's standings must not disagree on whether a place is shared."""

from __future__ import annotations

import pytest

from bot.core.standings import Placed, Tally, Window
from bot.i18n import translator
from bot.tg.standings_render import me, place
from bot.usecases.group_standings import MyPlaces


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
def test_a_shared_place_reads_the_same_in_me_and_top(lang: str) -> None:
    tr = translator(lang)
    tally = Tally(user_id=7, name="Awa", points=3, correct=3, runs=1)
    shared, alone = Placed(2, tally, shared=True), Placed(1, tally)
    text = me(tr, "Awa", MyPlaces(-100, "Group", {Window.WEEK: shared, Window.ALL: alone}))
    assert place(tr, shared).rstrip(".") in text  # "2=": /top's own words for it
    assert tr.number(1) + "=" not in text
