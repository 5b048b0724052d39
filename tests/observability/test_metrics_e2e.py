"""`/metrics` scraped over HTTP while a group run answers through the emulator (issue 32): the
counters move by what happened (answers stored, updates by kind, Bot API calls by method, the
run's timers) and the popup histogram holds one observation per member's tap."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.groups_kit import LETTERS, QUIZ, group_bot, make_group

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> tuple[str, Samples]:
    url = f"http://127.0.0.1:{port}/metrics"
    async with aiohttp.ClientSession() as http, http.get(url) as resp:
        assert resp.status == 200
        content_type = resp.headers["Content-Type"]
        text = await resp.text()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return content_type, samples


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    assert key in after, f"{name}{labels} not exported"
    return after[key] - before.get(key, 0.0)


async def test_a_group_run_moves_the_counters_a_scrape_reads(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.0, questions=1) as h:
        assert h.bot is not None
        port = await h.bot.start_metrics("127.0.0.1", 0)
        group, admin = await make_group(h)
        members = [h.emu.user(3001 + i, f"M{i}", language_code="en") for i in range(3)]
        for member in members:
            group.add_member(member)
        content_type, before = await scrape(port)
        assert content_type.startswith("text/plain; version=")  # the text format

        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/1" in m.text)
        for i, member in enumerate(members):
            said = await member.tap(q1, LETTERS[i])
            assert said is not None and said.text  # each popup came back
        await group.wait_for(lambda m: "finished" in m.text, timeout=10)
        _, after = await scrape(port)

        assert moved(before, after, "quizbot_answers_stored_total") == 3
        assert moved(before, after, "quizbot_updates_total", kind="callback_query") == 3
        assert moved(before, after, "quizbot_updates_total", kind="message") >= 1  # /push
        calls = "quizbot_bot_api_calls_total"
        assert moved(before, after, calls, method="answercallbackquery") == 3
        assert moved(before, after, calls, method="sendmessage") >= 2
        assert moved(before, after, "quizbot_popup_latency_seconds_count") == 3
        assert moved(before, after, "quizbot_popup_latency_seconds_sum") > 0
        # The popups took less than 10 s each: all three fall in the last finite bucket.
        assert moved(before, after, "quizbot_popup_latency_seconds_bucket", le="10.0") == 3
        assert moved(before, after, "quizbot_timers_fired_total", kind="run") >= 1
        # Gauges of the moment: nothing waits once the run is over.
        assert after[("quizbot_inbox_updates", ())] == 0
        assert after[("quizbot_timers_overdue", ())] == 0


async def test_a_replayed_tap_is_counted_as_repeated_and_not_stored(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=3.0, questions=1) as h:
        assert h.bot is not None
        port = await h.bot.start_metrics("127.0.0.1", 0)
        group, admin = await make_group(h)
        member = h.emu.user(3101, "Rama", language_code="en")
        group.add_member(member)
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/1" in m.text)
        _, before = await scrape(port)
        await member.tap(q1, "A")
        said = await member.tap(q1, "B")  # a second tap: not stored, its popup says so
        assert said is not None and "already" in (said.text or "")
        _, after = await scrape(port)
        assert moved(before, after, "quizbot_answers_stored_total") == 1
        assert moved(before, after, "quizbot_updates_total", kind="callback_query") == 2
