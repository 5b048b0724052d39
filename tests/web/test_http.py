"""The dashboard over HTTP, beside the real bot: who may see what, what is refused and logged,
the CSV files, and the ways in from the chats (/stats, /groupstats, the menu button)."""

from __future__ import annotations

import csv
import html
import io
import json
import logging
import re
from datetime import datetime
from datetime import time as dt_time
from urllib.parse import quote
from zoneinfo import ZoneInfo

import pytest

from bot.core.review import local_day
from bot.i18n import translator
from bot.web.auth import sign_init_data
from tests.web.http_kit import get
from tests.web.scenario import AWA, CLAIRE, GROUP, MOUSSA, NDEYE, Served


def values(page: str) -> dict[str, float]:
    return {k: float(v) for k, v in re.findall(r'data-key="([^"]+)" data-value="([^"]+)"', page)}


def test_the_shell_is_public_and_carries_no_data(served: Served) -> None:
    status, body, headers = get(served, "/")
    assert status == 200 and 'id="app"' in body and "Awa" not in body
    assert "frame-ancestors" in headers["Content-Security-Policy"]
    assert get(served, "/static/app.js")[0] == 200
    assert get(served, "/static/../auth.py")[0] == 404


def test_refusals_carry_the_same_security_headers_as_pages(served: Served) -> None:
    """A 404 or 414 is a response too: framed or sniffed, it must be refused like a page."""
    for path in ("/static/nope.js", "/nothing", "/?" + "x" * 3000):
        status, _, headers = get(served, path)
        assert status in (404, 414), (path, status)
        assert headers.get("X-Content-Type-Options") == "nosniff", (path, headers)
        assert "frame-ancestors" in headers.get("Content-Security-Policy", ""), (path, headers)


@pytest.mark.parametrize(
    "init_data",
    [
        None,  # no header at all
        "",
        "user=%7B%22id%22%3A3001%7D&auth_date=1790000000&hash=" + "0" * 64,  # forged
        "tampered",
    ],
)
def test_nothing_is_served_without_valid_init_data(
    served: Served, init_data: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.web.routes"):
        status, body, _ = get(served, "/api/view", init_data)
    assert status == 401 and "Open this page from the bot" in body
    assert "Awa" not in body and "data-key" not in body
    assert "refused /api/view" in caplog.text


def test_expired_replayed_or_foreign_init_data_gets_401_and_is_logged_without_it(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    stale = served.init_data(AWA, age=24 * 3600 + 5)  # a captured initData, replayed a day later
    other_bot = sign_init_data(
        "999:another-bot", {"id": AWA, "first_name": "Awa"}, auth_date=served.now()
    )
    with caplog.at_level(logging.INFO, logger="bot.web.routes"):
        assert get(served, "/api/view", stale)[0] == 401
        assert get(served, "/api/view", other_bot)[0] == 401
    assert "expired" in caplog.text and "bad hash" in caplog.text
    for secret in (stale, other_bot, stale.split("hash=")[1], quote(stale)):
        assert secret not in caplog.text


def test_a_learner_sees_their_own_numbers(served: Served) -> None:
    status, page, headers = get(served, "/api/view", served.init_data(AWA))
    assert status == 200 and headers["Content-Language"] == "en"
    shown = values(page)
    ((answers, right),) = served.rows(
        "SELECT count(*), sum(is_correct) FROM answers WHERE user_id = ?", AWA
    )
    assert shown["answers"] == answers == 2 and shown["accuracy"] == round(right / answers, 4)
    assert (
        shown["queued"]
        == served.rows("SELECT count(*) FROM review_items WHERE user_id = ?", AWA)[0][0]
    )
    # Moussa only played in the group: his page is his, whatever he asks for.
    status, page, _ = get(served, f"/api/view?view=learner&user={AWA}", served.init_data(MOUSSA))
    assert values(page)["answers"] == 2 and values(page)["accuracy"] == 1.0


def test_the_review_queue_is_dated_in_the_learners_own_zone(served: Served) -> None:
    # Claire set /timezone Pacific/Auckland before missing questions in the group run (at 13:33
    # UTC, already the 22nd there): due when her 23rd begins, and the page says the 23rd.
    zone = ZoneInfo("Pacific/Auckland")
    due = [at for (at,) in served.rows("SELECT due_at FROM review_items WHERE user_id = ?", CLAIRE)]
    assert due and all(datetime.fromtimestamp(at, zone).time() == dt_time(0) for at in due)
    _, page, _ = get(served, "/api/view", served.init_data(CLAIRE, lang="fr"))
    assert html.escape(translator("fr").day(local_day(due[0], zone))) in page
    assert local_day(due[0], zone) != local_day(due[0], ZoneInfo("UTC"))  # not the bot's day


def test_the_viewers_stored_language_wins_over_telegrams(served: Served) -> None:
    # Awa chose English in the bot; her Telegram says French: the page is in English.
    _, page, headers = get(served, "/api/view", served.init_data(AWA, lang="fr"))
    assert headers["Content-Language"] == "en" and "Your progress" in page
    _, page, headers = get(served, "/api/view", served.init_data(CLAIRE, lang="fr"))
    assert headers["Content-Language"] == "fr" and "Votre progression" in page


def test_group_pages_are_for_the_groups_admins_only(served: Served) -> None:
    path = f"/api/view?view=group&chat={GROUP}"
    status, page, _ = get(served, path, served.init_data(AWA))
    assert status == 200 and values(page)["runs"] == 1
    for member in (MOUSSA, CLAIRE, 999_999):
        status, page, _ = get(served, path, served.init_data(member))
        assert status == 403 and "data-key" not in page and "Moussa" not in page
    # A stranger Telegram knows nothing of ("user not found") is refused alone: the group's
    # other admins still get in (the group was once shut to everyone for five minutes).
    status, page, _ = get(served, path, served.init_data(NDEYE))
    assert status == 200 and values(page)["runs"] == 1
    # The start parameter of a direct link opens the group the same way, with the same check.
    link = served.init_data(AWA, start_param=f"g{GROUP}")
    assert values(get(served, "/api/view", link)[1])["runs"] == 1
    assert get(served, "/api/view", served.init_data(MOUSSA, start_param=f"g{GROUP}"))[0] == 403
    # A group the bot is not in: nobody administers it as far as we can tell.
    assert get(served, "/api/view?view=group&chat=-1009", served.init_data(AWA))[0] == 403


def test_csv_files_match_the_page_and_need_the_pages_ticket(served: Served) -> None:
    _, page, _ = get(served, f"/api/view?view=group&chat={GROUP}", served.init_data(AWA))
    links = {
        m.group(2): m.group(1).replace("&amp;", "&")
        for m in re.finditer(r'href="(/csv/group/-?\d+/(\w+)\.csv\?[^"]+)"', page)
    }
    assert set(links) == {"weeks", "questions", "items", "standings", "schedules"}
    items = list(csv.DictReader(io.StringIO(get(served, links["items"])[1])))
    assert len(items) == page.count('<article class="item"') > 0  # a short bank: all shown
    status, body, headers = get(served, links["standings"])
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    standings = list(csv.DictReader(io.StringIO(body)))
    stored = served.rows(
        """SELECT user_id, sum(is_correct), count(*) FROM answers WHERE attempt_id IN
           (SELECT id FROM attempts WHERE chat_id = ?) GROUP BY user_id ORDER BY 2 DESC""",
        GROUP,
    )
    assert [(int(r["user_id"]), int(r["right"]), int(r["answers"])) for r in standings] == stored
    questions = list(csv.DictReader(io.StringIO(get(served, links["questions"])[1])))
    chosen = sum(int(r["chosen"]) for r in questions)
    assert (
        chosen
        == served.rows(
            "SELECT count(*) FROM answers WHERE attempt_id IN "
            "(SELECT id FROM attempts WHERE chat_id = ?)",
            GROUP,
        )[0][0]
    )
    schedules = list(csv.DictReader(io.StringIO(get(served, links["schedules"])[1])))
    assert [(r["quiz"], r["days"], r["at_time"]) for r in schedules] == [
        ("next", "0,1,2,3,4", "18:30")
    ]

    ticket = links["weeks"].split("t=")[1].split("&")[0]
    assert get(served, f"/csv/group/-1009/weeks.csv?t={ticket}")[0] == 401  # another group
    assert get(served, f"/csv/group/{GROUP}/weeks.csv?t=1.2.3")[0] == 401
    assert get(served, f"/csv/group/{GROUP}/weeks.csv")[0] == 401
    assert get(served, f"/csv/group/{GROUP}/secrets.csv?t={ticket}")[0] == 404


def test_the_chats_open_the_dashboard(served: Served) -> None:
    assert served.emu is not None
    markups = [
        json.loads(c["reply_markup"]) if isinstance(c["reply_markup"], str) else c["reply_markup"]
        for c in served.emu.calls("sendMessage")
        if c.get("reply_markup")
    ]
    buttons = [b for m in markups for row in m.get("inline_keyboard", []) for b in row]
    web_apps = [b for b in buttons if "web_app" in b]
    assert web_apps == [
        {"text": "📊 Dashboard", "web_app": {"url": "https://dash.example.org/"}}
    ]  # /stats, in private
    links = [b["url"] for b in buttons if "t.me" in b.get("url", "")]
    assert links == [f"https://t.me/quizbot_test_bot/dash?startapp=g{GROUP}"]  # /groupstats
    (menu,) = served.emu.calls("setChatMenuButton")
    button = (
        json.loads(menu["menu_button"])
        if isinstance(menu["menu_button"], str)
        else menu["menu_button"]
    )
    assert button["type"] == "web_app" and button["web_app"]["url"] == "https://dash.example.org/"
