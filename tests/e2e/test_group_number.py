"""Number questions in group runs (issue 17): skipped unless an admin turns typed answers on
in /settings (the counts "1/1" and the scores then cover only the questions asked); when on, a
member's first reply to the question's message counts, later ones are ignored, a reply that is
no number gets one hint, and the reveal shows the right value and how many were right."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.content import load_catalog
from bot.emulator import Emulator
from bot.emulator.driver import ChatView, SimUser
from tests.e2e.groups_kit import GroupHarness, make_group
from tests.e2e.harness import TOKEN
from tests.e2e.number_kit import QUIZ, typed_on, with_number
from tests.reliability.support import content_copy


@asynccontextmanager
async def number_group_bot(
    tmp_path: Path, seconds: float, taps: int = 1
) -> AsyncIterator[GroupHarness]:
    """`taps` tap questions, then a number question (0.5 GB ± 0.05), in every language."""

    def edit(path: Path, data: dict[str, Any]) -> None:
        with_number(path, data)
        if path.name.startswith(QUIZ) and "questions" in data:
            keep = [*list(data["questions"])[:taps], "memory-number"]
            data["questions"] = {k: v for k, v in data["questions"].items() if k in keep}

    catalog = load_catalog(content_copy(tmp_path / "content", edit=edit))
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = GroupHarness(
            emu, tmp_path / "quizbot.sqlite3", catalog, seconds=seconds, clock_timers=True
        )
        await h.start_bot()
        try:
            yield h
        finally:
            await h.stop_bot()


async def _push(group: ChatView, admin: SimUser) -> None:
    mark = group.mark()
    await admin.send(f"/push {QUIZ}", chat=group)
    await group.wait_for(lambda m: "Group quiz" in m.text, after=mark)


async def test_number_questions_are_skipped_while_typed_answers_are_off(tmp_path: Path) -> None:
    async with number_group_bot(tmp_path, seconds=1.0) as h:
        group, admin = await make_group(h)
        await _push(group, admin)
        intro = await group.wait_for(lambda m: "Group quiz" in m.text)
        assert "1 question" in intro.text
        question = await group.wait_for(lambda m: "Question 1/1" in m.text)
        await admin.tap(question, "A")
        await h.next_timer()  # the question's time is up
        results = await group.wait_for(lambda m: "Quiz finished" in m.text, timeout=10)
        assert "\u2068Ada\u2069 · " in results.text and "/1 · " in results.text
        assert not any("Reply to this message" in m.text for m in group.bot_messages)
        assert h.answers_to("memory-number") == [(0,)]


async def _until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait (event loop turns, bounded) until `check()` holds: replies get no acknowledgement."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.02)


async def test_with_typed_answers_the_first_reply_per_member_counts(tmp_path: Path) -> None:
    async with number_group_bot(tmp_path, seconds=60.0, taps=0) as h:
        group, admin = await make_group(h)
        awa = h.emu.user(2001, "Awa", language_code="fr")
        bob = h.emu.user(2002, "Bob", language_code="en")
        cat = h.emu.user(2003, "Cat", language_code="en")
        for member in (awa, bob, cat):
            group.add_member(member, "member")
        await typed_on(group, admin)
        await _push(group, admin)
        number = await group.wait_for(lambda m: "Question 1/1" in m.text)
        assert "Reply to this message with a number (in GB)" in number.text
        assert not number.buttons
        mark = group.mark()
        await awa.send("0,5", chat=group, reply_to=number)  # French decimal comma: right
        await bob.send("0.4", chat=group, reply_to=number)  # wrong
        await cat.send("half", chat=group, reply_to=number)  # no number: one hint
        hint = await group.wait_for(
            lambda m: "\u2068Cat\u2069, I could not read a number" in m.text
        )
        await cat.send("about half", chat=group, reply_to=number)  # no second hint
        await bob.send("0.5")  # in private, not a reply to the question: no answer
        await _until(lambda: h.answers_to("memory-number") == [(2,)])
        await awa.send("0,7", chat=group, reply_to=number)  # a second reply: ignored
        await admin.send("/stop", chat=group)
        reveal = await group.wait_for(
            lambda m: m.message_id == number.message_id and "Answer:" in m.text, timeout=10
        )
        assert "✅ Answer: 0.5 ± 0.05 GB" in reveal.text
        assert "2 answers · 1 right" in reveal.text
        results = await group.wait_for(lambda m: "Quiz stopped" in m.text, timeout=10)
        assert "\u2068Awa\u2069 · 1/1" in results.text and "\u2068Bob\u2069 · 0/1" in results.text
        posted = [m for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert [m.message_id for m in posted if "could not read" in m.text] == [hint.message_id]
        rows = h.rows(
            """SELECT user_id, typed_text, is_correct FROM answers
               WHERE question_id = 'memory-number' ORDER BY user_id"""
        )
        assert rows == [(2001, "0,5", 1), (2002, "0.4", 0)]
        # /groupstats counts the number question like any other.
        mark = group.mark()
        await admin.send("/groupstats", chat=group)
        stats = await group.next_message(after=mark)
        assert "Micro-batches of 0.25 GB" in stats.text and "50% right, of 2 answers" in stats.text
        assert "French 100% (1)" in stats.text
        assert "most chosen wrong answer: 0.4 GB (1)" in stats.text  # the value Bob typed


async def test_a_quiz_of_number_questions_only_needs_typed_answers(tmp_path: Path) -> None:
    async with number_group_bot(tmp_path, seconds=60.0, taps=0) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        said = await group.next_message(after=mark)
        assert "needs a typed answer" in said.text and "/settings" in said.text
        assert h.rows("SELECT count(*) FROM group_runs") == [(0,)]


async def test_a_thousands_separator_gets_its_own_hint_in_a_group(tmp_path: Path) -> None:
    """Issue 28 #26: "1,000" is not "no number": its hint says it reads two ways."""
    async with number_group_bot(tmp_path, seconds=60.0, taps=0) as h:
        group, admin = await make_group(h)
        cat = h.emu.user(2003, "Cat", language_code="en")
        group.add_member(cat, "member")
        await typed_on(group, admin)
        await _push(group, admin)
        number = await group.wait_for(lambda m: "Question 1/1" in m.text)
        await cat.send("1,000", chat=group, reply_to=number)
        hint = await group.wait_for(lambda m: "\u2068Cat\u2069, “1,000”" in m.text)
        assert "can be read two ways: reply with 1000" in hint.text
        assert h.rows("SELECT count(*) FROM answers WHERE question_id = 'memory-number'") == [(0,)]
        await admin.send("/stop", chat=group)
        await group.wait_for(lambda m: "Quiz stopped" in m.text, timeout=10)


async def test_a_number_sent_without_reply_gets_one_hint_to_reply(tmp_path: Path) -> None:
    """Issue 28 #4: members who typed the number without replying to the question were
    ignored without a word (the walk's "0 answers"). One hint each says how to answer; chat
    that is no number, and a second plain number, get nothing. Telegram shows the bot plain
    messages only where it is an admin (privacy mode): it is one here."""
    async with number_group_bot(tmp_path, seconds=60.0, taps=0) as h:
        group, admin = await make_group(h)
        await h.emu.set_bot_status(group, "administrator", by=admin)
        cat = h.emu.user(2003, "Cat", language_code="en")
        group.add_member(cat, "member")
        await typed_on(group, admin)
        await _push(group, admin)
        number = await group.wait_for(lambda m: "Question 1/1" in m.text)
        mark = group.mark()
        await cat.send("nice question", chat=group)
        await cat.send("0.5", chat=group)
        hint = await group.wait_for(lambda m: "\u2068Cat\u2069" in m.text, after=mark)
        assert "reply to the question" in hint.text, hint.text
        await cat.send("0.5 GB", chat=group)
        await cat.send("0.5", chat=group, reply_to=number)  # the answer, as the hint says
        count = "SELECT count(*) FROM answers WHERE question_id = 'memory-number'"
        await _until(lambda: h.rows(count) == [(1,)])
        await admin.send("/stop", chat=group)
        await group.wait_for(lambda m: "Quiz stopped" in m.text, timeout=10)
        posted = [m for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert [m.message_id for m in posted if "\u2068Cat\u2069," in m.text] == [hint.message_id]
