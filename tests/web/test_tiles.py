"""The dashboard's tiles and empty sections (issue 28, items 19 and 20): each tile's label agrees
with its number in every language ("1 quiz finished", "1 quiz terminé"); a share with nothing to
share reads "–", not 0 %; and an empty page says what to do with something to tap, not a
command typed into a web page."""

from __future__ import annotations

import re

import pytest

from bot.i18n import translator
from tests.web.http_kit import get
from tests.web.scenario import AWA, GROUP, NDEYE, Served

NEWCOMER = 999_002  # never wrote to the bot


def tiles(page: str) -> dict[str, tuple[str, str]]:
    """key -> (the number shown, its label)."""
    found = re.findall(
        r'<div class="tile"><span class="n"(?: data-key="([^"]+)")?[^>]*>([^<]*)</span>'
        r"<small>([^<]*)</small></div>",
        page,
    )
    return {key or label: (shown, label) for key, shown, label in found}


def test_a_learners_tiles_agree_with_their_numbers(served: Served) -> None:
    _, page, _ = get(served, "/api/view", served.init_data(AWA))
    shown = tiles(page)
    assert shown["answers"] == ("2", "answers given")
    assert shown["quizzes"] == ("1", "quiz finished")  # was "1 / quizzes finished"


@pytest.mark.parametrize(
    ("lang", "label"),
    [("en", "quiz finished"), ("fr", "quiz terminé"), ("wo", "quiz yi nga jeexal")],
)
def test_a_tile_label_follows_each_languages_plural_rule(lang: str, label: str) -> None:
    tr = translator(lang)
    assert tr.ngettext("quiz finished", "quizzes finished", 1) == label
    assert (
        tr.ngettext("quiz finished", "quizzes finished", 2)
        == {
            "en": "quizzes finished",
            "fr": "quiz terminés",
            "wo": "quiz yi nga jeexal",
        }[lang]
    )


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
def test_a_newcomers_page_has_no_zero_percent_and_says_what_to_do(
    served: Served, lang: str
) -> None:
    tr = translator(lang)
    status, page, _ = get(served, "/api/view", served.init_data(NEWCOMER, lang))
    assert status == 200
    shown = tiles(page)
    (right,) = [v for v in shown.values() if v[1] == tr._("right")]
    assert right[0] == "–", shown  # no answers: no share of right ones
    assert tr.percent(0) not in page
    assert 'class="chart"' not in page  # no ten empty weeks drawn
    # The way on: back to the chat (the Mini App closes) and the quizzes' preview, as links.
    assert "data-close" in page and "view=preview" in page
    assert tr._("💬 Back to the chat") in page
    assert "/quizzes to take your first quiz" not in page


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
def test_a_groups_tiles_agree_with_their_numbers(served: Served, lang: str) -> None:
    tr = translator(lang)
    _, page, _ = get(served, f"/api/view?view=group&chat={GROUP}", served.init_data(NDEYE, lang))
    shown = tiles(page)
    assert shown["runs"] == ("1", tr.ngettext("run", "runs", 1))
    assert shown["finished"] == ("1", tr.ngettext("finished", "finished", 1))
    assert shown["members"] == ("2", tr.ngettext("member who answered", "members who answered", 2))
    if lang == "en":
        assert shown["runs"][1] == "run" and shown["members"][1] == "members who answered"
