"""The dashboard in a real headless browser (Debian's chromium, driven by Playwright): every page
at a phone's size in every language, its numbers against the database, an admin page refusing a
member, Telegram's theme, a CSV download. Screenshots of each page are kept as test artefacts
(tests/artifacts/dashboard, or $QUIZBOT_TEST_ARTIFACTS).

Skipped, saying why, where chromium or Playwright's Python package is missing: `.ci/run` installs
chromium. One browser for all of them keeps this fast.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from bot.i18n import translator
from tests.web.browser_kit import LANGS, PHONE, open_page, shot
from tests.web.scenario import AWA, CLAIRE, GROUP, MOUSSA, NDEYE, QUIZ, Served


def shown(page: Any) -> dict[str, float]:
    return {
        el.get_attribute("data-key"): float(el.get_attribute("data-value"))
        for el in page.query_selector_all("[data-key]")
    }


def fits_a_phone(page: Any) -> None:
    """Nothing but the side-by-side preview may scroll sideways."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"page is {width}px wide"


@pytest.mark.parametrize("lang", LANGS)
def test_learner_page(browser: Any, served: Served, lang: str) -> None:
    page = open_page(browser, served, "", served.init_data(MOUSSA, lang))
    try:
        tr = translator(lang)
        assert page.title() == tr._("📈 Your progress")
        assert page.evaluate("document.documentElement.lang") == lang
        numbers = shown(page)
        ((answers, right),) = served.rows(
            "SELECT count(*), sum(is_correct) FROM answers WHERE user_id = ?", MOUSSA
        )
        assert numbers["answers"] == answers and numbers["accuracy"] == round(right / answers, 4)
        weekly = sum(v for k, v in numbers.items() if k.startswith("week-"))
        assert weekly == answers
        assert page.locator("svg.chart rect.bar").count() == 12
        # A bar's tooltip is written as the language writes "label: value" (French: "21 sept. : 1").
        tooltip = page.locator("svg.chart rect.bar title").first.text_content() or ""
        label, _, value = tooltip.partition(tr._("{label}: {value}", label="", value=""))
        assert label and value.isdigit(), tooltip
        headings = ["Answers per week", "Accuracy by guide", "Review queue", "Best scores"]
        assert page.locator("h2").all_inner_texts() == [tr._(h) for h in headings]
        fits_a_phone(page)
        assert "#" not in page.url  # initData left the address bar
        shot(page, f"learner-{lang}")
    finally:
        page.context.close()


def test_learner_page_with_review_queue_and_scores(browser: Any, served: Served) -> None:
    page = open_page(browser, served, "", served.init_data(AWA))
    try:
        numbers = shown(page)
        queue = served.rows("SELECT count(*) FROM review_items WHERE user_id = ?", AWA)[0][0]
        assert numbers["queued"] == queue == page.locator("[data-table=queue] tbody tr").count()
        ((best,),) = served.rows(
            """SELECT max(c) FROM (SELECT sum(an.is_correct) AS c FROM attempts a
               JOIN answers an ON an.attempt_id = a.id AND an.user_id = a.user_id
               WHERE a.user_id = ? AND a.kind = 'private' AND a.status = 'finished'
               GROUP BY a.id)""",
            AWA,
        )
        assert numbers[f"best-{QUIZ}"] == best
        shot(page, "learner-queue-en")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_group_page_for_its_admin(browser: Any, served: Served, lang: str) -> None:
    # Ndeye administers the group and never chose a language in the bot: the page follows
    # Telegram's language (Awa's stored choice would win over it; see test_http).
    page = open_page(browser, served, f"?view=group&chat={GROUP}", served.init_data(NDEYE, lang))
    try:
        numbers = shown(page)
        ((runs, finished),) = served.rows(
            "SELECT count(*), sum(status = 'finished') FROM attempts WHERE chat_id = ?", GROUP
        )
        tr = translator(lang)
        assert page.title() == tr._("📊 Group statistics")
        # Four "⬇️ CSV" links: a screen reader tells them apart by the section each downloads.
        named = [page.get_attribute(f"#{key} a.csv", "aria-label") or "" for key in (
            "weeks", "questions", "standings", "schedules")]  # fmt: skip
        assert len(set(named)) == 4 and tr._("Standings") in named[2], named
        headings = [
            "Runs and participation",
            "Hardest questions",
            "Question quality (item analysis)",
            "Standings",
            "Upcoming quizzes",
        ]
        assert page.locator("h2").all_inner_texts() == [tr._(h) for h in headings]
        assert (numbers["runs"], numbers["finished"]) == (runs, finished)
        for user_id, right in served.rows(
            """SELECT user_id, sum(is_correct) FROM answers WHERE attempt_id IN
               (SELECT id FROM attempts WHERE chat_id = ?) GROUP BY user_id""",
            GROUP,
        ):
            assert numbers[f"right-{user_id}"] == right
        chosen = sum(v for k, v in numbers.items() if k.startswith("chosen-"))
        assert (
            chosen
            == served.rows(
                "SELECT count(*) FROM answers an JOIN attempts a ON a.id = an.attempt_id "
                "WHERE a.chat_id = ?",
                GROUP,
            )[0][0]
        )
        assert page.locator("[data-schedule]").count() == 1
        fits_a_phone(page)
        shot(page, f"group-{lang}")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_group_page_refuses_a_member(browser: Any, served: Served, lang: str) -> None:
    page = open_page(browser, served, f"?view=group&chat={GROUP}", served.init_data(CLAIRE, lang))
    try:
        assert page.get_attribute("main", "data-status") == "403"
        text = page.inner_text("main")
        assert translator(lang)._("Only the group's admins can see this page.") in text
        assert not page.query_selector_all("[data-key]") and "Moussa" not in text
        shot(page, f"group-refused-{lang}")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_content_preview_side_by_side(browser: Any, served: Served, lang: str) -> None:
    quiz = served.h.catalog.quiz(QUIZ) if served.h else None
    assert quiz is not None
    page = open_page(browser, served, f"?view=preview&quiz={QUIZ}", served.init_data(CLAIRE, lang))
    try:
        assert page.title() == translator(lang)._("🌍 Quiz preview")
        head = page.inner_text("[data-table=preview] thead")
        assert all(name in head for name in ("English", "Français", "Wolof"))
        assert page.locator("[data-table=preview] tbody tr[data-question]").count() == len(quiz)
        first = page.inner_text("[data-table=preview] tbody tr[data-question] >> nth=0")
        for code in LANGS:
            assert quiz.questions[0].prompt.get(code).replace("`", "")[:30] in first
        shot(page, f"preview-{lang}")
    finally:
        page.context.close()


def test_navigation_keeps_the_session_and_the_theme(browser: Any, served: Served) -> None:
    theme = {"bg_color": "#102030", "text_color": "#f0f0f0", "button_color": "#ff8800"}
    page = open_page(browser, served, "", served.init_data(MOUSSA), theme=theme)
    try:
        background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert background == "rgb(16, 32, 48)"
        page.click("nav a[href*=preview]")
        page.wait_for_selector("main[aria-busy=false] h1")
        assert page.get_attribute("main", "data-status") == "200"  # initData kept for the tab
        page.click(f"a[href*='quiz={QUIZ}']")
        page.wait_for_selector("[data-table=preview]")
        background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert background == "rgb(16, 32, 48)"
        shot(page, "preview-themed")
    finally:
        page.context.close()


def test_csv_download_from_the_group_page(browser: Any, served: Served, tmp_path: Path) -> None:
    page = open_page(browser, served, f"?view=group&chat={GROUP}", served.init_data(AWA))
    try:
        with page.expect_download() as info:
            page.click("#standings a.csv")
        target = tmp_path / "standings.csv"
        info.value.save_as(target)
        with target.open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert {int(r["user_id"]) for r in rows} == {MOUSSA, CLAIRE}
    finally:
        page.context.close()


def test_without_init_data_the_page_says_where_to_open_it(browser: Any, served: Served) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(served.url + "/")
        page.wait_for_selector("main[aria-busy=false]")
        assert page.get_attribute("main", "data-status") == "401"
        assert "Telegram" in page.inner_text("main")
        # A heading, as every page has: the tab's title says it, and a screen reader lands on it.
        assert "Telegram" in page.inner_text("h1") and "Telegram" in page.title()
    finally:
        context.close()


def test_preview_keys_for_a_groups_admin_not_for_a_newcomer(browser: Any, served: Served) -> None:
    # A learner who never answered: the questions without their key, and a line saying why.
    page = open_page(browser, served, f"?view=preview&quiz={QUIZ}", served.init_data(999_001))
    try:
        rows = page.locator("[data-table=preview] tbody tr[data-question]")
        assert rows.count() > 0
        assert page.locator("tr[data-answer=shown]").count() == 0
        assert page.locator("li.ok, p.ok, p.why").count() == 0
        assert "outside an exam" in page.inner_text("main")
        shot(page, "preview-newcomer")
    finally:
        page.context.close()
    # The group's admin, from the group's page through the menu: every key, in each language.
    page = open_page(browser, served, f"?view=group&chat={GROUP}", served.init_data(NDEYE))
    try:
        page.click("nav a[href*=preview]")
        page.wait_for_selector("main[aria-busy=false] h1")
        page.click(f"a[href*='quiz={QUIZ}']")
        page.wait_for_selector("[data-table=preview]")
        rows = page.locator("[data-table=preview] tbody tr[data-question]")
        assert rows.count() == page.locator("tr[data-answer=shown]").count() > 0
        marked = "[...document.querySelectorAll('tr[data-answer=shown] td')]"
        assert page.evaluate(f"{marked}.every(td => td.querySelector('.ok'))")  # each language
        assert "outside an exam" not in page.inner_text("main")
        shot(page, "preview-group-admin")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_page_that_cannot_load_says_so_and_offers_to_try_again(
    browser: Any, served: Served, lang: str
) -> None:
    """On patchy mobile data the page's request can fail: it showed "⚠️" alone, no words and
    no way but closing the Mini App. It now says what happened, in the phone's language, with a
    button that loads the page again."""
    context = browser.new_context(viewport=PHONE, locale=lang)
    page = context.new_page()
    try:
        page.route("**/api/view*", lambda route: route.abort())
        fragment = "tgWebAppData=" + quote(served.init_data(MOUSSA, lang), safe="")
        page.goto(f"{served.url}/#{fragment}")
        page.wait_for_selector("main[aria-busy=false]")
        tr = translator(lang)
        assert page.evaluate("document.documentElement.lang") == lang
        assert tr._("The page could not load: check your connection, then try again.") in (
            page.inner_text("h1")
        )
        page.unroute("**/api/view*")
        page.get_by_role("button", name=tr._("Try again")).click()
        page.wait_for_selector("main[data-status='200']")  # the page, with the saved initData
        assert page.title() == tr._("📈 Your progress")
    finally:
        context.close()
