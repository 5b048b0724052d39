"""Long sections of the dashboard stop where a phone would scroll forever, say how many more
there are, and keep the most useful rows: a learner's review queue with hundreds of missed
questions (the most overdue first), and a group's item analysis over a bank of hundreds of
questions (the flagged ones, then the hardest), whose CSV holds every question. Checked on the
rendered HTML, then in Chromium at a phone's size with the dashboard's own stylesheet."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.core.item_analysis import Flag, ItemAnalysis
from bot.core.models import Quiz
from bot.core.review import ReviewItem
from bot.core.stats import Accuracy
from bot.i18n import translator
from bot.store.analytics import GroupTotals
from bot.usecases.dashboard import GroupPage, LearnerPage, QueuedQuestion
from bot.usecases.item_reports import AnalysedItem, QuizItems
from bot.web import csv_files, group_page, item_section, learner_page
from tests.e2e.harness import shipped_catalog
from tests.web.browser_kit import PHONE

NOW = 1_800_000_000.0
DAY = 86_400.0
UTC = ZoneInfo("UTC")
STATIC = Path(__file__).parents[2] / "bot" / "web" / "static"


def bank(quiz_id: str, size: int) -> Quiz:
    """A quiz of `size` questions, the shipped ones repeated under ids of their own."""
    base = next(iter(shipped_catalog().quizzes.values()))
    questions = tuple(
        replace(base.questions[k % len(base.questions)], id=f"q{k:03d}") for k in range(size)
    )
    return replace(base, id=quiz_id, questions=questions)


def learner(queued: int) -> LearnerPage:
    quiz = bank("big", queued)
    queue = [
        QueuedQuestion(
            ReviewItem(1, quiz.id, q.id, 2.0, 5.0, NOW + (k - 30) * DAY, NOW - DAY), quiz, q
        )
        for k, q in enumerate(quiz.questions)
    ]
    return LearnerPage([], [], Accuracy(), queue, 30, [], UTC)


def analysed_bank(quiz: Quiz, miskeyed: set[int]) -> QuizItems:
    items = []
    for k, q in enumerate(quiz.questions):
        flags = ((Flag.NEGATIVE, ""),) if k in miskeyed else ()
        # question k is right for (k % 97)/100 of its answerers: q096 the easiest, q000 the hardest
        analysis = ItemAnalysis(q.id, 25, (k % 97) / 100, 0.3, 0.3, 0.5, (), flags)
        items.append(AnalysedItem(k, q, analysis))
    return QuizItems(quiz, items)


def group(sizes: tuple[int, ...] = (150, 150)) -> GroupPage:
    quizzes = [
        analysed_bank(bank(f"bank-{n}", size), {140} if n == 1 else set())
        for n, size in enumerate(sizes)
    ]
    return GroupPage(-1, None, UTC, GroupTotals(1, 1, 25, 25, 1), [], [], [], [], quizzes)


def items_of(html: str) -> str:
    start = html.index('<section id="items">')
    return html[start : html.index("</section>", start)]


def test_a_queue_of_hundreds_shows_the_first_hundred_most_overdue_first() -> None:
    tr = translator("fr")
    html = learner_page.render(tr, learner(250), UTC, NOW, "")
    table = re.search(r'<table data-table="queue">.*?</table>', html, re.S)
    assert table is not None
    assert table.group().count("<tr>") - 1 == learner_page.QUEUE_SHOWN == 100
    assert tr.ngettext("…and {n} more question", "…and {n} more questions", 150) in html
    assert 'data-key="queued" data-value="250"' in html  # the count is the whole queue's
    due = [
        row.rsplit("<td>", 1)[-1]
        for row in re.findall(r"<tr><td>(.*?)</td></tr>", table.group(), re.S)
    ]
    assert due[:31] == [tr._("now")] * 31 != due[31:32]  # what is due first, as /review serves it


def test_a_short_queue_says_nothing_more() -> None:
    html = learner_page.render(translator("en"), learner(12), UTC, NOW, "")
    assert "more question" not in html


def test_a_bank_of_hundreds_shows_the_flagged_then_the_hardest_and_the_csv_holds_all() -> None:
    tr, page = translator("wo"), group()
    section = items_of(group_page.render(tr, page, "", {"items": "/items.csv"}))
    rows = re.findall(r"<tr><td>(\d+)</td>", section)
    articles = re.findall(r'data-item="([^"]+)" data-flagged="(\d)"', section)
    assert len(rows) == len(articles) == item_section.ITEMS_SHOWN == 50
    assert articles[0] == ("q000", "0")  # each quiz's hardest first (quizzes in their order)
    found = re.findall(r'data-item="([^"]+)" data-flagged="\d" data-quiz="([^"]+)"', section)
    shown = {(quiz, q) for q, quiz in found}
    bank_1 = [q for q, quiz in found if quiz == "bank-1"]
    assert bank_1[0] == "q140"  # its mis-keyed question, late in the quiz, heads its part
    # then the hardest of both quizzes: right for 0 %, 1 %... of their answerers
    for n in range(2):
        assert {("bank-" + str(n), f"q{k:03d}") for k in (0, 97, 1, 98)} <= shown
    assert ("bank-0", "q096") not in shown  # the easiest wait in the CSV
    more = tr.ngettext("…and {n} more question", "…and {n} more questions", 250)
    assert more in section
    assert 'href="/items.csv"' in section
    sheet = list(csv.DictReader(io.StringIO(csv_files.WRITERS["items"](page, "en"))))
    assert len(sheet) == 300
    assert {r["quiz_id"] for r in sheet} == {"bank-0", "bank-1"}
    flagged = [r for r in sheet if r["flags"]]
    assert [(r["quiz_id"], r["question_id"], r["flags"]) for r in flagged] == [
        ("bank-1", "q140", "negative")
    ]


def test_a_small_bank_shows_every_question_in_the_order_it_had() -> None:
    section = items_of(group_page.render(translator("en"), group((12,)), "", {}))
    assert len(re.findall(r"<tr><td>(\d+)</td>", section)) == 12
    assert "more question" not in section


def test_in_chromium_the_long_sections_fit_a_phone(browser: Any) -> None:
    css = (STATIC / "app.css").read_text()
    tr = translator("en")
    bodies = {
        "queue": learner_page.render(tr, learner(400), UTC, NOW, ""),
        "items": group_page.render(tr, group((300, 300)), "", {"items": "/items.csv"}),
    }
    shown = {"queue": ("[data-table=queue] tbody tr", 100), "items": ("#items tbody tr", 50)}
    for name, body in bodies.items():
        page: Any = browser.new_page(viewport=PHONE)
        try:
            page.set_content(
                f"<html><head><style>{css}</style></head><body><main>{body}</main></body></html>"
            )
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (name, width)
            rows, count = shown[name]
            assert page.locator(rows).count() == count, name
            assert page.get_by_text(re.compile(r"…and \d+ more questions")).first.is_visible()
            height = page.evaluate("document.documentElement.scrollHeight")
            assert height < 60_000, (name, height)  # hundreds of rows made it far longer
        finally:
            page.close()
