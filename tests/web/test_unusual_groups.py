"""Group pages for groups the scenario's tidy study group is not: members with long names
written without a space (Telegram allows 64 characters), a title as long as Telegram allows, a
group upgraded to a supergroup after its run (its admins still tap the link posted before), and
a group just created, with no run yet.

The world is built once for the module by the real bot through the emulator, as the session's
scenario is (tests/web/scenario.py).
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.cli.run import start_dashboard
from bot.emulator import Emulator
from bot.i18n import translator
from tests.e2e.groups_kit import LETTERS, QUIZ, right_position, short_catalog
from tests.e2e.harness import TOKEN
from tests.web.browser_kit import LANGS, PHONE, open_page, shot
from tests.web.http_kit import ADMIN_ONLY, get
from tests.web.scenario import DashboardHarness, Served

OLD, EMPTY = -40_901, -100_902  # a basic group (upgraded after its run), a new group
ADMIN, LONG_ID, RTL_ID, TAGS_ID = 4001, 4101, 4102, 4103
LONG = "Ndeyefatoukambarambaye" * 2 + "X" * 20  # 64 characters, no space
RTL = "مريم عبد الرحمن"
TAGS = '<img src=x onerror=alert(1)>"&'
TITLE = "Promo" + "2026LicenceInformatiqueUniversitéCheikhAntaDiop" * 2 + " révisions"


class Unusual(Served):
    """The scenario's machinery with a world of its own; `new_id`: the supergroup OLD became."""

    new_id = 0

    async def _start(self) -> None:
        self.emu = Emulator(token=TOKEN, flood=None)
        await self.emu.start()
        h = self.h = DashboardHarness(
            self.emu, self.tmp / "quizbot.sqlite3", short_catalog(2), seconds=1.0
        )
        bot = await h.start_bot()
        admin = h.emu.user(ADMIN, "Ada", language_code="en")
        members = [
            h.emu.user(LONG_ID, LONG, language_code="en"),
            h.emu.user(RTL_ID, RTL, language_code="en"),
            h.emu.user(TAGS_ID, TAGS, language_code="en"),
        ]
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group = h.emu.group(OLD, TITLE)
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        for member in members:
            group.add_member(member)
        await admin.send(f"/push {QUIZ}", chat=group)
        for index in range(len(quiz)):
            question = await group.wait_for(lambda m, i=index: f"Question {i + 1}/" in m.text)
            right = right_position(question, quiz, index)
            for k, member in enumerate(members):
                await member.tap(question, LETTERS[(right + k) % 4])
        await group.wait_for(lambda m: "🏁" in m.text, timeout=30)
        self.new_id = await h.emu.migrate_to_supergroup(group, by=admin)
        for _ in range(100):  # until the bot has moved the group to its new id
            if self.rows("SELECT 1 FROM moved_groups WHERE old_id = ?", OLD):
                break
            await asyncio.sleep(0.05)
        empty = h.emu.group(EMPTY, "New group")
        empty.add_member(admin, "creator")
        empty.add_member(members[0])
        await h.emu.add_bot_to_group(empty, by=admin)
        await empty.wait_for(lambda m: "/push" in m.text)
        self.runner, port = await start_dashboard(bot, TOKEN, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def unusual(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Unusual]:
    world = Unusual(Path(tmp_path_factory.mktemp("unusual")))
    world.start()
    try:
        yield world
    finally:
        world.stop()


@pytest.mark.parametrize("lang", LANGS)
def test_long_names_and_titles_fit_a_phone(browser: Any, unusual: Unusual, lang: str) -> None:
    query = f"?view=group&chat={unusual.new_id}"
    page = open_page(browser, unusual, query, unusual.init_data(ADMIN, lang))
    try:
        assert page.get_attribute("main", "data-status") == "200"
        text = page.inner_text("main")
        for name in (LONG, RTL, TAGS):  # each member as written, as text
            assert name in text
        assert page.locator("main img").count() == 0
        width = page.evaluate("document.documentElement.scrollWidth")
        shot(page, f"group-long-names-{lang}")
        assert width <= PHONE["width"], f"page is {width}px wide"
    finally:
        page.context.close()


def test_a_link_from_before_the_upgrade_opens_the_supergroups_page(unusual: Unusual) -> None:
    """/groupstats's link (startapp=g<old id>) stays in the chat's history after Telegram
    upgrades the group: its admins get the supergroup's page, where the run now is."""
    new = unusual.new_id
    for path, data in [
        (f"/api/view?view=group&chat={OLD}", unusual.init_data(ADMIN)),
        ("/api/view", unusual.init_data(ADMIN, start_param=f"g{OLD}")),
    ]:
        status, page, _ = get(unusual, path, data)
        assert status == 200, page[:300]
        assert 'data-key="runs" data-value="1"' in page
        assert f"chat={new}" in page and f"chat={OLD}" not in page  # the menu goes on there
        assert re.search(rf'href="/csv/group/{new}/standings\.csv\?', page)
    # A member is refused there as on the supergroup's own page.
    status, page, _ = get(unusual, f"/api/view?view=group&chat={OLD}", unusual.init_data(LONG_ID))
    assert status == 403 and ADMIN_ONLY in html.unescape(page) and "data-key" not in page


@pytest.mark.parametrize("lang", LANGS)
def test_a_new_groups_page_draws_no_empty_weeks(unusual: Unusual, lang: str) -> None:
    tr = translator(lang)
    status, page, _ = get(
        unusual, f"/api/view?view=group&chat={EMPTY}", unusual.init_data(ADMIN, lang)
    )
    assert status == 200
    weeks = page[page.index('id="weeks"') : page.index('id="questions"')]
    assert 'class="chart"' not in weeks  # no twelve empty weeks, twice
    assert tr._("No runs in this group yet. /push in the group starts a quiz.") in weeks
    assert "data-close" in weeks  # something to tap: back to the chat
