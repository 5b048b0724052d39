"""The dashboard's group page shows item analysis (SQLite and PostgreSQL): after 25 members
answered a quiz whose second question has a wrong key, its table lists that question first,
as probably mis-keyed, and each question with enough answerers gets a chart of its wrong
answers; under 20 answerers the rows say the figures are not reliable yet."""

from __future__ import annotations

import re

from bot.i18n import translator
from bot.store.interface import Engine
from bot.usecases.dashboard import DashboardService
from bot.web import group_page
from tests.item_tables import MEMBERS, MISKEYED, QUESTIONS, miskeyed_catalog
from tests.usecases.item_analysis_kit import CHAT, NOW, run_quiz


async def page_html(db: Engine, lang: str = "en") -> str:
    page = await DashboardService(miskeyed_catalog(), db, clock=lambda: NOW).group(CHAT)
    return group_page.render(translator(lang), page, "", {})


def section(html: str) -> str:
    start = html.index('<section id="items">')
    return html[start : html.index("</section>", start)]


def articles(items: str) -> list[str]:
    return re.findall(r'<article class="item" (.*?)</article>', items)


async def test_the_miskeyed_question_heads_the_table_with_its_reasons(db: Engine) -> None:
    await run_quiz(db, MEMBERS, NOW)
    items = section(await page_html(db))
    assert "Question quality (item analysis)" in items
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", items)
    assert len(rows) == QUESTIONS
    assert rows[0].startswith(f"{MISKEYED + 1}</td><td>{MEMBERS}</td><td>36%</td><td>-0.")
    shown = articles(items)
    assert len(shown) == QUESTIONS
    first = shown[0]
    assert first.startswith('data-item="effective-batch" data-flagged="1" data-quiz=')
    assert f"<b>{MISKEYED + 1}.</b> Micro-batches of 4" in first
    assert "<li>probably mis-keyed: members who do well" in first
    assert "the strongest members choose “32” (100%) more than the key (0%)" in first
    assert sum("mis-keyed" in a for a in shown) == 1
    assert items.count('<figure class="plot"><svg') == QUESTIONS  # a chart per question
    assert '<figure class="plot"><svg' in first
    legend = re.findall(r'<ul class="key">(.*?)</ul>', first)[0]  # what bars and line are
    assert [re.sub("<[^>]+>", "", i) for i in re.findall("<li>(.*?)</li>", legend)] == [
        "Everyone",
        "The strongest members",
    ]
    assert {"0%", "50%", "100%"} <= set(re.findall(r'<text class="tick"[^>]*>([^<]*)<', first))


async def test_under_twenty_answerers_the_rows_say_not_reliable(db: Engine) -> None:
    await run_quiz(db, 12, NOW)
    items = section(await page_html(db, "fr"))
    shown = articles(items)
    assert len(shown) == QUESTIONS
    assert all("peu fiable avant 20\u00a0répondants" in a for a in shown)
    assert not any("corrigé probablement faux" in a for a in shown)  # no flag, no figure
    assert "<figure" not in items
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", items)
    assert all(row.endswith("<td>12</td><td>–</td><td>–</td><td>–") for row in rows)
