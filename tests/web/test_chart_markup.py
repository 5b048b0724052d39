"""The dashboard's charts and dates in its HTML, where no browser is needed (issue 28, review
items 21 and 22): a legend naming every series, labelled axes, the preview's cells labelled
with their language, and schedules dated as the chat dates them."""

from __future__ import annotations

import html
import re

import pytest

from bot.i18n import translator
from bot.web import charts
from tests.web.http_kit import get
from tests.web.scenario import GROUP, MOUSSA, NDEYE, QUIZ, Served

LANGS = ("en", "fr", "wo")


def legends(page: str) -> list[list[str]]:
    """Each chart's legend entries, in order (tags stripped)."""
    found = []
    for block in re.findall(r'<figure class="plot">(.*?)</figure>', page, re.S):
        key = re.search(r'<ul class="key">(.*?)</ul>', block, re.S)
        items = re.findall(r"<li>(.*?)</li>", key.group(1), re.S) if key else []
        found.append([html.unescape(re.sub(r"<[^>]+>", "", i)).strip() for i in items])
    return found


def ticks(page: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'<text class="tick[^"]*"[^>]*>([^<]*)<', page)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_learners_chart_names_its_series_and_scales_the_share(
    served: Served, lang: str
) -> None:
    tr = translator(lang)
    status, page, _ = get(served, "/api/view", served.init_data(MOUSSA, lang))
    assert status == 200
    assert legends(page) == [[tr._("Answers given"), tr._("Share of right answers")]]
    assert {tr.number(0), tr.percent(0), tr.percent(0.5), tr.percent(1)} <= set(ticks(page))


@pytest.mark.parametrize("lang", LANGS)
def test_the_groups_charts_name_their_series(served: Served, lang: str) -> None:
    tr = translator(lang)
    status, page, _ = get(
        served, f"/api/view?view=group&chat={GROUP}", served.init_data(NDEYE, lang)
    )
    assert status == 200
    assert legends(page) == [[tr._("Runs started")], [tr._("Players, summed over runs")]]
    assert tr.number(0) in ticks(page)
    # The bars of answers by language: a legend of the options, the right one said so.
    for article in re.findall(r'<article class="question".*?</article>', page, re.S):
        if 'svg class="choices"' in article:
            assert html.escape(tr._("right answer")) in article and 'class="key' in article
    assert not re.search(r"\d\d:\d\d:\d\d", page)  # no time with seconds anywhere


def test_a_single_week_gets_a_scale_not_a_lonely_dot() -> None:
    svg = charts.bars(
        [4],
        ["Sep 21"],
        "Answers per week",
        series="answers",
        count=str,
        ratios=[0.5],
        line="share",
        share=lambda r: f"{r:.0%}",
    )
    labels = re.findall(r'<text class="tick[^"]*"[^>]*>([^<]*)<', svg)
    assert {"0", "5", "0%", "50%", "100%"} <= set(labels)  # counts up to 5, the share to 100
    assert 'class="grid' in svg  # the lines the dot is read against


@pytest.mark.parametrize("lang", LANGS)
def test_the_previews_cells_say_their_language(served: Served, lang: str) -> None:
    tr = translator(lang)
    _, page, _ = get(served, f"/api/view?view=preview&quiz={QUIZ}", served.init_data(NDEYE, lang))
    cells = re.findall(r'<td data-lang="([^"]*)"', page)
    names = [html.escape(tr.language_name(code)) for code in LANGS]
    assert cells and cells[:3] == names and len(cells) % 3 == 0
