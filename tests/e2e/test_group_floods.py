"""Floods in a group (issue 25, items 4 and 5): what members say costs the run nothing.

Telegram lets a bot post about 20 messages a minute in a group, and a run spends some of them.
Before: a member's 25 `/help` got 25 replies and the next question came 60 s late; 25 members
replying "sixty-four" to a number question got a hint each, and the next question came 56 s
late. Now a member gets at most one answer to a command a minute, a group a few, nothing is
posted in the group while a run plays (the member is answered privately when the bot may write
to them), and a number question gets at most `HINTS_PER_QUESTION` hints.

The paced tests run the bot's own rate limiter against the emulator's Telegram-like flood
limits. A question kept waiting behind courtesy replies comes a minute late (the group's window
is 60 s); `ON_TIME` is far below that and generous for a loaded machine.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.content import load_catalog
from bot.core.courtesy import GROUP_REPLIES, HINTS_PER_QUESTION
from bot.emulator import Emulator, FloodLimits
from bot.emulator.driver import ChatView, Mark, SimUser
from tests.e2e.groups_kit import QUIZ, GroupHarness, group_bot, make_group
from tests.e2e.harness import TOKEN
from tests.e2e.number_kit import typed_on, with_number
from tests.reliability.support import content_copy

SECONDS = 3.0  # each question's time
ON_TIME = 25.0  # seconds: a question that waited for the group's window comes after 60
FLOOD = 25


def _group_posts(group: ChatView, after: int) -> list[str]:
    """Texts of the bot's new messages in the group from message id `after` on."""
    return [m.text for m in group.bot_messages if m.message_id >= after]


def _group_post_ids(group: ChatView, after: int) -> list[int]:
    return [m.message_id for m in group.bot_messages if m.message_id >= after]


def _told(user: SimUser, after: Mark) -> list[str]:
    """Texts of the bot's new messages in `user`'s private chat since `after`."""
    return [m.text for m in user.private.bot_messages if m.message_id >= after.next_message_id]


async def _settled(group: ChatView, admin: SimUser) -> None:
    """Every update sent before this is handled: one chat's updates are handled in order, so
    the admin's /settings screen comes after whatever the bot did with the earlier ones."""
    mark = group.mark()
    await admin.send("/settings", chat=group)
    await group.wait_for(lambda m: "Group settings" in m.text, after=mark)


async def test_a_members_command_flood_gets_one_answer_and_the_run_keeps_its_pace(
    tmp_path: Path,
) -> None:
    async with group_bot(
        tmp_path, seconds=SECONDS, flood=FloodLimits(), rate_limit=True, questions=2
    ) as h:
        group, admin = await make_group(h)
        awa = h.emu.user(2001, "Awa", language_code="en")
        bob = h.emu.user(2002, "Bob", language_code="en")
        for member in (awa, bob):
            group.add_member(member)
        await awa.send("/start")  # Awa can be written to privately; Bob never started the bot
        await awa.private.wait_for(lambda m: bool(m.buttons))
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark)
        flood, private = group.mark(), awa.private.mark()
        for _ in range(FLOOD):
            await awa.send("/help", chat=group)
            await bob.send("/help", chat=group)
            await bob.send("/push", chat=group)  # an admin's command: refused, at most once
        second = await group.wait_for(
            lambda m: "Question 2/2" in m.text, after=flood, timeout=ON_TIME
        )
        results = await group.wait_for(
            lambda m: "Quiz finished" in m.text, after=flood, timeout=ON_TIME
        )
        # Nothing in the group but the run's own messages while it played.
        posted = _group_post_ids(group, flood.next_message_id)
        assert posted == [second.message_id, results.message_id], group.transcript(8)
        # Awa is answered once, privately; Bob, whom the bot may not write to, not at all.
        told = _told(awa, private)
        assert len(told) == 1 and group.title in told[0] and "/push" in told[0], told
        assert not bob.started
        assert h.emu.stats.flood_errors == 0  # and no send waited out a 429


async def test_members_get_one_answer_a_command_a_minute_and_a_group_a_few(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        members = [h.emu.user(3001 + n, f"M{n}", language_code="en") for n in range(5)]
        for member in members:
            group.add_member(member)
        last = members[-1]
        await last.send("/start")  # the last member can be written to privately
        await last.private.wait_for(lambda m: bool(m.buttons))
        first, private = group.mark(), last.private.mark()
        for _ in range(3):
            await members[0].send("/help", chat=group)
        await _settled(group, admin)
        posted = _group_posts(group, first.next_message_id)
        assert sum("/push" in text for text in posted) == 1, posted  # once a minute
        for member in members[1:]:
            await member.send("/help", chat=group)
        await _settled(group, admin)
        posted = _group_posts(group, first.next_message_id)
        # The group's few, then privately (the last member) or not at all (the fourth).
        assert sum("/push" in text for text in posted) == GROUP_REPLIES, posted
        told = _told(last, private)
        assert len(told) == 1 and group.title in told[0] and "/push" in told[0], told
        # A minute later the first member is answered again; admins are never held back.
        h.clock.advance(61)
        again = group.mark()
        await members[0].send("/help", chat=group)
        for _ in range(3):
            await admin.send("/help", chat=group)
        await _settled(group, admin)
        posted = _group_posts(group, again.next_message_id)
        assert sum("/push" in text for text in posted) == 4, posted


@asynccontextmanager
async def number_first_bot(tmp_path: Path) -> AsyncIterator[GroupHarness]:
    """The number question (0.5 GB ± 0.05) first, then one tap question; paced as Telegram."""

    def edit(path: Path, data: dict[str, Any]) -> None:
        with_number(path, data)
        if path.name.startswith(QUIZ) and "questions" in data:
            questions = data["questions"]
            first_tap = next(k for k in questions if k != "memory-number")
            order = [k for k in ("memory-number", first_tap) if k in questions]
            data["questions"] = {k: questions[k] for k in order}

    catalog = load_catalog(content_copy(tmp_path / "content", edit=edit))
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        h = GroupHarness(
            emu, tmp_path / "quizbot.sqlite3", catalog, seconds=SECONDS, rate_limit=True
        )
        await h.start_bot()
        try:
            yield h
        finally:
            await h.stop_bot()


async def test_unreadable_replies_get_a_few_hints_and_the_run_keeps_its_pace(
    tmp_path: Path,
) -> None:
    async with number_first_bot(tmp_path) as h:
        group, admin = await make_group(h)
        members = [h.emu.user(4001 + n, f"N{n}", language_code="en") for n in range(FLOOD)]
        for member in members:
            group.add_member(member)
        await typed_on(group, admin)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        number = await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark)
        flood = group.mark()
        for member in members:
            await member.send("sixty-four", chat=group, reply_to=number)
        await members[0].send("about sixty", chat=group, reply_to=number)
        second = await group.wait_for(
            lambda m: "Question 2/2" in m.text, after=flood, timeout=ON_TIME
        )
        posted = _group_posts(group, flood.next_message_id)
        hints = [text for text in posted if "could not read a number" in text]
        assert len(hints) == HINTS_PER_QUESTION, posted
        ids = _group_post_ids(group, flood.next_message_id)
        assert len(ids) == HINTS_PER_QUESTION + 1 and ids[-1] == second.message_id, ids
        assert h.emu.stats.flood_errors == 0


async def test_a_member_is_answered_when_telegram_will_not_say_who_is_an_admin(
    tmp_path: Path,
) -> None:
    """Every group command now asks whether its sender is an admin (members' replies are
    capped, admins' are not): a refused getChatMember leaves a member's /help answered, not
    "something went wrong"."""
    async with group_bot(tmp_path) as h:
        group, _ = await make_group(h)
        member = h.emu.user(5001, "Ndeye", language_code="en")
        group.add_member(member)
        h.emu.faults.add("getChatMember", "400_chat_not_found", times=1)
        mark = group.mark()
        await member.send("/help", chat=group)
        reply = await group.next_message(after=mark)
        assert "/push" in reply.text and "went wrong" not in reply.text
