"""The dashboard's layout in a real browser (issue 28, review items 21 and 22): nothing wider
than a phone, charts that say what their colours and heights mean and stay small on a desktop,
and the schedules dated as the chat dates them."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.core.schedule import decode_days, next_run
from bot.i18n import translator
from tests.web.browser_kit import DESKTOP, LANGS, open_page, shot
from tests.web.scenario import GROUP, MOUSSA, NDEYE, QUIZ, Served

PAGES = {
    "preview": f"?view=preview&quiz={QUIZ}",
    "group": f"?view=group&chat={GROUP}",
    "learner": "",
}
SERIES = {  # each chart's series, as its legend must name them
    "learner": [["Answers given", "Share of right answers"]],
    "group": [["Runs started"], ["Players, summed over runs"]],
}
CUT_OFF = """[...document.querySelectorAll('main *')]
  .filter(el => el.getClientRects().length)
  .filter(el => {
    const r = el.getBoundingClientRect();
    return r.right > innerWidth + 0.5 || r.left < -0.5;
  })
  .map(el => el.tagName + ': ' + (el.textContent || '').slice(0, 30))"""


def viewer(name: str) -> int:
    return MOUSSA if name == "learner" else NDEYE


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["preview", "group"])
def test_nothing_is_wider_than_a_phone(browser: Any, served: Served, name: str, lang: str) -> None:
    page = open_page(browser, served, PAGES[name], served.init_data(viewer(name), lang))
    try:
        assert page.get_attribute("main", "data-status") == "200"
        width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
        assert width <= inner, f"{name} is {width}px wide in a {inner}px window"
        assert page.evaluate(CUT_OFF) == []  # nor cut off inside a box that hides its overflow
        shot(page, f"layout-{name}-phone-{lang}")
    finally:
        page.context.close()


def test_the_preview_stacks_the_languages_on_a_phone(browser: Any, served: Served) -> None:
    page = open_page(browser, served, PAGES["preview"], served.init_data(NDEYE, "fr"))
    try:
        first = page.locator("[data-table=preview] tbody tr[data-question] >> nth=0")
        cells = first.locator("td")
        boxes = [cells.nth(i).bounding_box() for i in range(cells.count())]
        assert len(boxes) == 3
        assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]  # one above the other
        names = [cells.nth(i).get_attribute("data-lang") for i in range(3)]
        assert names == ["English", "Français", "Wolof"]  # each cell says its language
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["learner", "group"])
def test_every_chart_has_a_legend_and_a_labelled_axis(
    browser: Any, served: Served, name: str, lang: str
) -> None:
    tr = translator(lang)
    page = open_page(browser, served, PAGES[name], served.init_data(viewer(name), lang))
    try:
        charts = page.locator("figure.plot")
        assert charts.count() == len(SERIES[name])
        for index, series in enumerate(SERIES[name]):
            chart = charts.nth(index)
            assert chart.locator("svg.chart").count() == 1
            legend = chart.locator(".key li").all_inner_texts()
            assert [text.strip() for text in legend] == [tr._(s) for s in series]
            ticks = [t.strip() for t in chart.locator("svg text.tick").all_text_contents()]
            assert len(ticks) >= 2 and all(ticks) and tr.number(0) in ticks
            if name == "learner":  # the share of right answers has its own scale
                assert {tr.percent(0), tr.percent(0.5), tr.percent(1)} <= set(ticks)
        # Every coloured bar of answers by language says what its colours are: the options.
        for article in page.locator("article.question:has(svg.choices)").all():
            legend = " ".join(article.locator(".key li").all_inner_texts())
            options = article.locator("ol.options li").count()
            assert all(letter in legend for letter in "ABCDEFGHIJ"[:options])
            assert tr._("right answer") in legend
    finally:
        page.context.close()


@pytest.mark.parametrize("name", ["learner", "group"])
def test_charts_stay_small_on_a_desktop(browser: Any, served: Served, name: str) -> None:
    page = open_page(
        browser, served, PAGES[name], served.init_data(viewer(name), "fr"), viewport=DESKTOP
    )
    try:
        boxes = [svg.bounding_box() for svg in page.locator("svg.chart").all()]
        assert boxes and all(box["height"] <= 200 for box in boxes), boxes
        top = min(box["y"] for box in boxes)
        bottom = max(box["y"] + box["height"] for box in boxes)
        assert bottom - top <= DESKTOP["height"] / 3  # a group's two charts: side by side
        shot(page, f"layout-{name}-desktop-fr")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_schedules_are_dated_as_the_chat_dates_them(
    browser: Any, served: Served, lang: str
) -> None:
    tr = translator(lang)
    ((days, at_time),) = served.rows("SELECT days, at_time FROM schedules WHERE chat_id = ?", GROUP)
    zone = ZoneInfo("UTC")  # the group never chose a zone: the bot's
    upcoming = next_run(decode_days(days), at_time, datetime.fromtimestamp(served.now(), zone))
    assert upcoming is not None
    page = open_page(browser, served, PAGES["group"], served.init_data(NDEYE, lang))
    try:
        when = page.inner_text("[data-schedule] b")
        day, time = tr.short_day(upcoming.date()), tr.clock_time(upcoming.hour, upcoming.minute)
        assert when == tr._("{day} at {time}", day=day, time=time)
        assert upcoming.strftime(":%M:%S") not in page.inner_text("#schedules")  # no seconds
    finally:
        page.context.close()


def test_the_preview_keeps_its_columns_on_a_desktop(browser: Any, served: Served) -> None:
    page = open_page(
        browser, served, PAGES["preview"], served.init_data(NDEYE, "fr"), viewport=DESKTOP
    )
    try:
        cells = page.locator("[data-table=preview] tbody tr[data-question] >> nth=0").locator("td")
        boxes = [cells.nth(i).bounding_box() for i in range(cells.count())]
        assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]  # side by side
        assert len({box["y"] for box in boxes}) == 1
        assert page.locator("[data-table=preview] thead th").first.is_visible()
        shot(page, "layout-preview-desktop-fr")
    finally:
        page.context.close()
