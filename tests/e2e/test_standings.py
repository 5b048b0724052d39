"""Lasting standings through the emulator: scoring in /settings, the end-of-run podium and
climbers, /top with its window buttons (bound to their group), /me idle and during a run,
members who leave, and the groups part of /stats."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path

from bot.emulator import Emulator
from bot.tg.options import BotOptions
from bot.usecases.dashboard import DashboardService
from tests.e2e.groups_kit import (
    LETTERS,
    QUIZ,
    group_bot,
    make_group,
    right_position,
)
from tests.e2e.harness import TOKEN, compose_bot, shipped_catalog
from tests.e2e.reads import Rows
from tests.e2e.standings_kit import play


async def settled(read: Callable[[], Rows], expected: Rows) -> None:
    """Wait until the bot has handled a service message (updates run concurrently)."""
    for _ in range(200):
        if read() == expected:
            return
        await asyncio.sleep(0.025)
    assert read() == expected


async def test_speed_scoring_podium_climbers_and_top_windows(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.5) as h:
        group, admin = await make_group(h)
        cheikh = h.emu.user(2001, "Cheikh <b>", language_code="en")
        awa = h.emu.user(2002, "Awa", language_code="en")
        for member in (cheikh, awa):
            group.add_member(member)

        mark = group.mark()
        await admin.send("/settings", chat=group)
        settings = await group.wait_for(lambda m: "Scoring" in m.text, after=mark)
        assert "Scoring: plain (1 point a right answer)" in settings.text
        refused = await awa.tap(settings, "Speed scoring")
        assert refused is not None and "only the group's admins" in (refused.text or "")
        saved = await admin.tap(settings, "Speed scoring")
        assert saved is not None and saved.text == "Saved."
        await group.wait_for(
            lambda m: m.message_id == settings.message_id and "Scoring: speed" in m.text
        )
        assert h.rows("SELECT scoring, streak_bonus FROM groups") == [("speed", 0)]

        board = await play(h, group, admin, [(cheikh, [True, True]), (awa, [True, False])])
        assert "Scoring: speed" in board.text and "Right answers · total answer time" in board.text
        scores = dict(h.run_points())
        assert scores[2001] > scores[2002] > 0 and scores[2001] <= 2000
        # the run's points: a second figure on each line, after right answers and time
        first = next(line for line in board.text.splitlines() if line.startswith("🥇"))
        assert first.startswith("🥇 \u2068Cheikh <b>\u2069 · 2/2 · ⏱ ")
        assert first.endswith(f" · {scores[2001]:,} points")
        assert "Cheikh &lt;b&gt;" in board.html
        assert "Moved up" not in board.text  # the week's first run: nobody had a place

        # Awa answers both at once, Cheikh does not play: Awa climbs from 2nd to 1st
        board2 = await play(h, group, admin, [(awa, [True, True])])
        assert (
            "Moved up this week" in board2.text and "\u2068Awa\u2069: now 1, was 2" in board2.text
        )

        mark = group.mark()
        await awa.send("/top", chat=group)
        top = await group.wait_for(lambda m: "Standings" in m.text, after=mark)
        assert "Standings: This week" in top.text
        assert top.text.index("Awa") < top.text.index("Cheikh")
        assert "Ranked by right answers" in top.text and "points ·" not in top.text
        await cheikh.tap(top, "This month")  # any member may switch; edited in place
        moved = await group.wait_for(
            lambda m: m.message_id == top.message_id and "Standings: This month" in m.text
        )
        assert "✓ This month" in [b.text for row in moved.buttons for b in row]
        await cheikh.tap(moved, "All time")
        await group.wait_for(
            lambda m: m.message_id == top.message_id and "Standings: All time" in m.text
        )

        # a window button forged for another chat changes nothing
        forged = await cheikh.tap(top, callback_data="top:-999:w")
        assert forged is not None and "expired" in (forged.text or "")
        assert "Standings: All time" in group.message(top.message_id).text
        # and a group button tapped in a private chat is refused
        await cheikh.send("/start")
        private = await cheikh.private.wait_for(lambda m: bool(m.buttons))
        refused = await cheikh.tap(private, callback_data=f"top:{group.id}:w")
        assert refused is not None and "expired" in (refused.text or "")


async def test_me_stats_and_members_who_left(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.5) as h:
        group, admin = await make_group(h)
        modou = h.emu.user(2003, "Modou", language_code="en")
        awa = h.emu.user(2002, "Awa", language_code="en")
        for member in (modou, awa):
            group.add_member(member)
        await modou.send("/start")  # Modou can be written to privately; Awa cannot
        await modou.private.wait_for(lambda m: bool(m.buttons))

        await play(h, group, admin, [(modou, [True, True]), (awa, [True, False])])
        mark = group.mark()
        await awa.send("/me", chat=group)
        mine = await group.wait_for(lambda m: "in this group" in m.text, after=mark)
        assert "\u2068Awa\u2069 in this group" in mine.text
        assert "This week: #2 · 1 right answer" in mine.text
        assert "All time: #2 · 1 right answer" in mine.text

        # during a run, /me goes to the member privately, or nowhere (bot/core/courtesy.py)
        h.clock.advance(61)  # a minute after Awa's /me: she may ask again
        quiz_mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        await group.wait_for(lambda m: "Question 1/2" in m.text, after=quiz_mark)
        private_mark = modou.private.mark()
        await modou.send("/me", chat=group)
        dm = await modou.private.wait_for(lambda m: "Your /me" in m.text, after=private_mark)
        assert group.title in dm.text and "This week: #1 · 2 right answers" in dm.text
        # one header, the one naming the group ("in this group" reads wrong in a private chat)
        assert "in this group" not in dm.text and "📊" not in dm.text, dm.text
        await awa.send("/me", chat=group)  # she never started the bot: no post in the group
        await group.wait_for(lambda m: "finished" in m.text, timeout=8, after=quiz_mark)
        during = [m.text for m in group.bot_messages if m.message_id >= quiz_mark.next_message_id]
        assert not any("in this group" in text or "Awa" in text for text in during), during

        # Awa leaves: kept in history, not listed; back again: listed with her points
        await h.emu.member_leaves(group, awa)
        await settled(lambda: h.member_present(2002), [(0,)])
        mark = group.mark()
        await modou.send("/top", chat=group)
        top = await group.wait_for(lambda m: "Standings" in m.text, after=mark)
        assert "Modou" in top.text and "Awa" not in top.text
        assert h.run_score_count(2002) == [(1,)]
        await h.emu.member_joins(group, awa)
        await settled(lambda: h.member_present(2002), [(1,)])
        h.clock.advance(61)  # a member's same command is answered once a minute
        mark = group.mark()
        await modou.send("/top", chat=group)
        top = await group.wait_for(lambda m: "Standings" in m.text, after=mark)
        assert "Awa" in top.text

        # /stats in private ends with the member's place in each group
        private_mark = modou.private.mark()
        await modou.send("/stats")
        section = await modou.private.wait_for(
            lambda m: "Your groups" in m.text, after=private_mark
        )
        assert group.title in section.text and "All time: #1 · 2 right answers" in section.text


async def test_departures_seen_through_chat_member_updates(tmp_path: Path) -> None:
    """A group that hides service messages: an administrator bot learns who left and who came
    back only from chat_member updates, which Telegram sends only if the bot asks for them."""
    async with group_bot(tmp_path, seconds=1.5) as h:
        group, admin = await make_group(h)
        await h.emu.set_bot_status(group, "administrator", by=admin)
        awa = h.emu.user(2002, "Awa", language_code="en")
        group.add_member(awa)
        await h.emu.member_leaves(group, awa, service=False)
        await settled(lambda: h.member_present(2002), [(0,)])
        await h.emu.member_joins(group, awa, service=False)
        await settled(lambda: h.member_present(2002), [(1,)])


async def test_a_restricted_member_who_leaves_is_no_longer_listed(tmp_path: Path) -> None:
    """Telegram keeps a restricted (muted) member's status "restricted" when they leave, with
    `is_member` false: the chat_member update says they left by that flag, not by the status."""
    async with group_bot(tmp_path, seconds=1.5) as h:
        group, admin = await make_group(h)
        await h.emu.set_bot_status(group, "administrator", by=admin)
        awa = h.emu.user(2002, "Awa", language_code="en")
        group.add_member(awa)
        await h.emu.member_joins(group, awa, service=False)
        await settled(lambda: h.member_present(2002), [(1,)])
        group.add_member(awa, "restricted")
        await h.emu.member_leaves(group, awa, service=False)
        await settled(lambda: h.member_present(2002), [(0,)])
        await h.emu.member_joins(group, awa, service=False)  # back, still restricted
        await settled(lambda: h.member_present(2002), [(1,)])


async def test_webhook_asks_for_chat_member_updates(tmp_path: Path) -> None:
    """Webhook mode asks Telegram for chat_member too (setWebhook's allowed_updates)."""
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = compose_bot(BotOptions(token=TOKEN, db_path=tmp_path / "w.sqlite3",
                                 catalog=shipped_catalog(), base_url=emu.base_url,
                                 rate_limit=False))  # fmt: skip
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        await bot.start_webhook("https://example.org/telegram", "s3cret-Token_1", "127.0.0.1", port)
        try:
            info = await bot.app.bot.get_webhook_info()
            assert "chat_member" in (info.allowed_updates or ())
            assert "callback_query" in (info.allowed_updates or ())
            # the front of several workers registers the same list
            await bot.register_webhook("https://example.org/telegram2", "s3cret-Token_1")
            info = await bot.app.bot.get_webhook_info()
            assert info.url.endswith("2") and "chat_member" in (info.allowed_updates or ())
        finally:
            await bot.stop()


async def test_speed_leaderboard_ranks_by_right_answers_then_time(tmp_path: Path) -> None:
    """Speed scoring: Cheikh is right fast and wrong slowly, Awa right slowly and wrong fast.
    Both have one right answer and Awa the shorter total time, though Cheikh has more points:
    the leaderboard ranks as every standing does (right answers, then time), and each line
    carries the run's points as a second figure (issue 28)."""
    async with group_bot(tmp_path, seconds=1.5) as h:
        group, admin = await make_group(h)
        cheikh = h.emu.user(2001, "Cheikh", language_code="en")
        awa = h.emu.user(2002, "Awa", language_code="en")
        for member in (cheikh, awa):
            group.add_member(member)
        mark = group.mark()
        await admin.send("/settings", chat=group)
        settings = await group.wait_for(lambda m: "Scoring" in m.text, after=mark)
        await admin.tap(settings, "Speed scoring")
        await group.wait_for(
            lambda m: m.message_id == settings.message_id and "Scoring: speed" in m.text
        )
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        taps = [[(0.1, cheikh, True), (0.9, awa, True)], [(0.1, awa, False), (1.3, cheikh, False)]]
        for index, plan in enumerate(taps):
            question = await group.wait_for(
                lambda m, i=index: f"Question {i + 1}/2" in m.text and bool(m.buttons), after=mark
            )
            right = right_position(question, quiz, index)
            for wait, member, is_right in plan:
                h.clock.advance(wait)
                await member.tap(question, LETTERS[right if is_right else (right + 1) % 4])
        board = await group.wait_for(lambda m: "finished" in m.text, timeout=8, after=mark)
        scores = dict(h.run_points())
        assert scores[2001] > scores[2002] > 0
        lines = board.text.splitlines()
        first = next(line for line in lines if line.startswith("🥇"))
        second = next(line for line in lines if line.startswith("🥈"))
        assert first.startswith("🥇 \u2068Awa\u2069 · 1/2 · ⏱ ")
        assert first.endswith(f" · {scores[2002]:,} points")
        assert second.startswith("🥈 \u2068Cheikh\u2069 · 1/2 · ⏱ ")
        assert second.endswith(f" · {scores[2001]:,} points")
        assert board.text.count("Awa") == 1 and board.text.count("Cheikh") == 1
        assert "Scoring: speed" in board.text


async def test_top_does_not_add_plain_and_speed_points(tmp_path: Path) -> None:
    """Walk item 16: a plain run (Cheikh right twice: 2 points) then a speed run (Awa right
    once: hundreds of points). /top ranks by right answers, so Cheikh leads; no points are
    added up across runs; the dashboard's standings are the same table (one rule, one query)."""
    async with group_bot(tmp_path, seconds=1.5) as h:
        group, admin = await make_group(h)
        cheikh = h.emu.user(2001, "Cheikh", language_code="en")
        awa = h.emu.user(2002, "Awa", language_code="en")
        for member in (cheikh, awa):
            group.add_member(member)
        await play(h, group, admin, [(cheikh, [True, True])])
        mark = group.mark()
        await admin.send("/settings", chat=group)
        settings = await group.wait_for(lambda m: "Scoring" in m.text, after=mark)
        await admin.tap(settings, "Speed scoring")
        await group.wait_for(
            lambda m: m.message_id == settings.message_id and "Scoring: speed" in m.text
        )
        await play(h, group, admin, [(awa, [True, False])])
        points = dict(h.rows("SELECT user_id, sum(points) FROM run_scores GROUP BY user_id"))
        assert points[2002] > points[2001] == 2  # the old ranking by points put Awa first

        mark = group.mark()
        await awa.send("/top", chat=group)
        top = await group.wait_for(lambda m: "Standings" in m.text, after=mark)
        assert "1. \u2068Cheikh\u2069 · 2 right answers · 1 run" in top.text
        assert "2. \u2068Awa\u2069 · 1 right answer · 1 run" in top.text
        assert f"{points[2002]:,}" not in top.text and "points ·" not in top.text

        assert h.bot is not None
        page = await DashboardService(h.catalog, h.bot.db, clock=h.clock).group(group.id)
        shown = [(p.rank, p.tally.user_id, p.tally.correct) for p in page.standings]
        assert shown == [(1, 2001, 2), (2, 2002, 1)]
