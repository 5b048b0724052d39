"""Study groups through the emulator: admins push, members answer in their own languages,
reveals and leaderboards match the database, /stop, and a restart in the middle of a run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.core.markup import plain
from bot.i18n import translator
from tests.e2e.groups_kit import (
    LETTERS,
    QUIZ,
    GroupHarness,
    group_bot,
    make_group,
    right_position,
    shown_counts,
)


def db_counts(h: GroupHarness, run_id: int, index: int) -> list[int]:
    (orders,) = h.rows("SELECT option_orders FROM attempts WHERE id = ?", run_id)[0]
    order = json.loads(orders)[index]
    counts = [0] * len(order)
    for (option,) in h.rows(
        "SELECT option_index FROM answers WHERE attempt_id = ? AND question_index = ?",
        run_id,
        index,
    ):
        counts[order.index(option)] += 1
    return counts


@pytest.mark.both_transports
async def test_push_answer_reveal_and_leaderboard_in_three_languages(
    tmp_path: Path, transport: str
) -> None:
    async with group_bot(tmp_path, seconds=1.5, transport=transport, clock_timers=True) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        cheikh = h.emu.user(2001, "Cheikh <b>&", language_code="en")
        awa = h.emu.user(2002, "Awa", language_code="fr")
        modou = h.emu.user(2003, "Modou", language_code="en")  # chose Wolof in private
        for member in (cheikh, awa, modou):
            group.add_member(member)
        await modou.send("/start")
        picker = await modou.private.wait_for(lambda m: bool(m.buttons))
        await modou.tap(picker, "Wolof")

        # This test reads verdicts in the popups: the setting that shows them (default: off).
        mark = group.mark()
        await admin.send("/settings", chat=group)
        settings = await group.wait_for(lambda m: "Answer popups" in m.text, after=mark)
        await admin.tap(settings, "Popup: verdict")
        assert h.popup_verdicts() == [(1,)]

        await awa.send(f"/push {QUIZ}", chat=group)
        await group.wait_for(lambda m: "admins can" in m.text)  # not /help's list
        assert h.rows("SELECT count(*) FROM attempts WHERE kind = 'group'") == [(0,)]

        mark = group.mark()
        await admin.send(f"/push@quizbot_test_bot {QUIZ}", chat=group)
        intro = await group.next_message(after=mark)
        assert quiz.title.get("en") in intro.text and "2 questions" in intro.text
        assert quiz.guide.url.get("en") in intro.html
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        ((run_id,),) = h.group_run_ids()
        right = right_position(q1, quiz, 0)
        wrong = (right + 1) % len(q1.buttons[0])

        said = {}
        for member, pos, lang in ((cheikh, right, "en"), (awa, wrong, "fr"), (modou, right, "wo")):
            h.clock.advance(1)
            answer = await member.tap(q1, LETTERS[pos])
            assert answer is not None and answer.text is not None
            said[lang] = answer.text
            assert len(answer.text) <= 200 and "<" not in answer.text
            explanation = plain(quiz.questions[0].explanation.get(lang))
            assert explanation[:40] in answer.text, (lang, answer.text)
        assert said["en"].startswith("✅") and said["fr"].startswith("❌")
        again = await awa.tap(q1, LETTERS[right])
        assert again is not None
        assert again.text == translator("fr")._("You already answered this question.")
        assert h.rows("SELECT user_id, language FROM answers ORDER BY user_id") == [
            (2001, "en"),
            (2002, "fr"),
            (2003, "wo"),
        ]

        await h.next_timer()  # Q1's time is up
        revealed = await group.wait_for(
            lambda m: m.message_id == q1.message_id and m.edited, timeout=5
        )
        assert not revealed.buttons
        assert (
            shown_counts(revealed)
            == db_counts(h, run_id, 0)
            == [2 if p == right else (1 if p == wrong else 0) for p in range(len(q1.buttons[0]))]
        )
        assert f"✅ {LETTERS[right]}." in revealed.text
        assert quiz.guide.url.get("en") in revealed.html
        late = await cheikh.tap(q1, callback_data=f"g:{run_id}:0:{right}")
        assert late is not None and "closed" in (late.text or "")

        q2 = await group.wait_for(lambda m: "Question 2/2" in m.text)
        right2 = right_position(q2, quiz, 1)
        for member, pos in ((awa, right2), (modou, (right2 + 1) % 4), (cheikh, right2)):
            h.clock.advance(2)
            await member.tap(q2, LETTERS[pos])

        await h.next_timer()  # Q2's time is up
        board = await group.wait_for(lambda m: "finished" in m.text, timeout=5)
        expected = h.rows(
            """SELECT u.first_name FROM answers a JOIN users u ON u.id = a.user_id
               WHERE a.attempt_id = ? GROUP BY a.user_id, u.first_name
               ORDER BY sum(a.is_correct) DESC, sum(a.elapsed_ms), a.user_id""",
            run_id,
        )
        names = [name for (name,) in expected]
        assert names == ["Cheikh <b>&", "Awa", "Modou"]  # 2/2, then 1/2 faster than 1/2
        positions = [board.text.index(name) for name in names]
        assert positions == sorted(positions)
        assert "Cheikh &lt;b&gt;&amp;" in board.html
        assert quiz.guide.url.get("en") in board.html
        assert h.rows("SELECT status FROM attempts WHERE id = ?", run_id) == [("finished",)]


async def test_anonymous_admin_pushes_and_stop_posts_results_so_far(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        group, _ = await make_group(h)
        member = h.emu.user(2001, "Bintou", language_code="fr")
        group.add_member(member)
        await group.send_as_anonymous_admin("/push gradient-checkpointing")
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        await member.tap(q1, "A")
        mark = group.mark()
        await group.send_as_anonymous_admin("/push gradient-accumulation")
        busy = await group.next_message(after=mark)
        assert "already running" in busy.text

        mark = group.mark()
        # A member's refusal while a run plays goes privately (bot/core/courtesy.py); Bintou
        # never started the bot, so it goes nowhere, and nothing is posted in the group.
        await member.send("/stop", chat=group)
        await group.send_as_anonymous_admin("/stop@quizbot_test_bot")
        results = await group.wait_for(lambda m: "stopped" in m.text)
        posted = [m for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert [m.message_id for m in posted] == [results.message_id]
        assert "Bintou" in results.text
        revealed = group.message(q1.message_id)
        assert revealed.edited and not revealed.buttons and shown_counts(revealed)[0] == 1
        assert h.attempt_statuses() == [("abandoned",)]
        assert h.answer_count() == [(1,)]
        mark = group.mark()
        await group.send_as_anonymous_admin("/stop")
        assert "No quiz" in (await group.next_message(after=mark)).text


async def test_restart_mid_run_loses_no_answer_and_finishes(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=2, clock_timers=True) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        members = [h.emu.user(2001 + i, f"M{i}", language_code="en") for i in range(3)]
        for member in members:
            group.add_member(member)
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        right = right_position(q1, quiz, 0)
        await members[0].tap(q1, LETTERS[right])
        await members[1].tap(q1, LETTERS[(right + 1) % 4])

        await h.restart_bot()  # the fake clock stands still: Q1 still has its full time
        answer = await members[2].tap(q1, LETTERS[right])
        assert answer is not None and f"answer {LETTERS[right]} is recorded" in (answer.text or "")
        await h.next_timer()
        revealed = await group.wait_for(lambda m: m.message_id == q1.message_id and m.edited)
        assert sum(shown_counts(revealed)) == 3
        q2 = await group.wait_for(lambda m: "Question 2/2" in m.text)
        await members[0].tap(q2, "A")
        await h.next_timer()
        board = await group.wait_for(lambda m: "finished" in m.text, timeout=6)
        assert all(m.state.first_name in board.text for m in members)
        assert h.answer_count() == [(4,)]
        assert h.attempt_statuses() == [("finished",)]


async def test_restart_after_the_deadline_reveals_at_once(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        group, admin = await make_group(h)
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        await h.stop_bot()
        h.clock.advance(60)  # the bot was down past the deadline
        await h.start_bot()
        revealed = await group.wait_for(lambda m: m.message_id == q1.message_id and m.edited)
        assert not revealed.buttons
        await group.wait_for(lambda m: "Question 2/2" in m.text)


async def test_an_anonymous_admins_me_is_told_why_no_place_is_shown(tmp_path: Path) -> None:
    """/me shows the sender's own place; an anonymous admin writes as the group, so there is
    nobody to look up. It used to get no answer at all: now it is told why, and what to do."""
    async with group_bot(tmp_path, seconds=30) as h:
        group, _ = await make_group(h)
        mark = group.mark()
        await group.send_as_anonymous_admin("/me")
        said = await group.next_message(after=mark)
        assert "as the group" in said.text and "/stats" in said.text, said.text
