"""A command sent in the wrong kind of chat says where it works, in the sender's language.

Every command of the menus' PRIVATE_ONLY and GROUP_ONLY sets is tried, so a command added to a
menu without its reply fails here. Before this, a group-only command privately got "I only
understand commands and buttons" and a private-only one in a group got no answer at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.emulator import EmuMessage
from bot.i18n import load_all, translator
from bot.tg.menus import GROUP, GROUP_ADMIN, GROUP_ONLY, PRIVATE_ONLY
from tests.e2e.groups_kit import LETTERS, QUIZ, group_bot, make_group, right_position
from tests.e2e.harness import Harness

BOT = "quizbot_test_bot"  # the emulator's default bot username


def urls(message: EmuMessage) -> list[str]:
    return [b.url for row in message.buttons for b in row if b.url]


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
async def test_a_group_command_sent_privately_says_it_works_in_a_group(
    harness: Harness, lang: str
) -> None:
    load_all()
    tr = translator(lang)
    user = harness.emu.user(7101, "Awa", language_code=lang)
    for name in sorted(GROUP_ONLY):
        mark = user.private.mark()
        await user.send(f"/{name} gradient-checkpointing")
        reply = await user.private.next_message(after=mark)
        expected = tr._(
            "{command} works in a group: add me to one, then send it there.",
            command=f"/{name}",
        )
        assert reply.text == expected, (name, reply.text)
        assert urls(reply) == [f"https://t.me/{BOT}?startgroup=true"]
        assert [b.text for row in reply.buttons for b in row] == [tr._("➕ Add me to a group")]
    if lang != "en":  # really translated, not the English fallback
        assert "works in a group" not in reply.text


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
async def test_a_private_command_sent_in_a_group_links_to_the_private_chat(
    tmp_path: Path, lang: str
) -> None:
    load_all()
    tr = translator(lang)
    async with group_bot(tmp_path) as h:
        # An admin, so that each command is answered (a member's go through the courtesy rules
        # of bot/core/courtesy.py: one such pointer a minute, see the member's case below).
        admin = h.emu.user(7201, "Ada", language_code=lang)
        member = h.emu.user(7202, "Ibou", language_code=lang)
        group = h.emu.group(-100_720, "Groupe")
        group.add_member(admin, "creator")
        group.add_member(member, "member")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        for name in sorted(PRIVATE_ONLY):
            mark = group.mark()
            await admin.send(f"/{name}", chat=group)
            reply = await group.next_message(after=mark)
            expected = tr._(
                "{command} works in a private chat with me, not in a group.",
                command=f"/{name}",
            )
            assert reply.text == expected, (name, reply.text)  # the sender's language
            assert urls(reply) == [f"https://t.me/{BOT}?start=cmd-{name}"]
            label = [b.text for row in reply.buttons for b in row]
            assert label == [tr._("💬 Open a private chat with me")]
        if lang != "en":
            assert "private chat with me" not in reply.text

        # A member is answered too, in their language (the group's is English).
        mark = group.mark()
        await member.send("/exam", chat=group)
        reply = await group.next_message(after=mark)
        assert reply.text == tr._(
            "{command} works in a private chat with me, not in a group.", command="/exam"
        )

        # The button's deep link opens the command itself in the private chat.
        mark = member.private.mark()
        await member.send("/stats")
        direct = await member.private.next_message(after=mark)
        mark = member.private.mark()
        await member.send("/start cmd-stats")
        linked = await member.private.next_message(after=mark)
        assert linked.text == direct.text


async def test_group_help_lists_every_group_command(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        admin = h.emu.user(7301, "Ada", language_code="en")
        group = h.emu.group(-100_730, "Groupe")
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        mark = group.mark()
        await admin.send("/help", chat=group)
        shown = await group.next_message(after=mark)
        for command in {c.name for c in (*GROUP, *GROUP_ADMIN)}:
            assert f"/{command}" in shown.text, command
        for name in PRIVATE_ONLY:
            assert f"/{name}" in shown.text, name


async def test_deletequiz_without_an_id_gives_its_usage(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        admin = h.emu.user(7401, "Ada", language_code="en")
        group = h.emu.group(-100_740, "Groupe")
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        mark = group.mark()
        await admin.send("/deletequiz", chat=group)
        shown = await group.next_message(after=mark)
        assert shown.text.startswith("Usage: /deletequiz <id>"), shown.text
        assert "?" not in shown.text


async def test_a_member_who_came_by_the_deep_link_gets_the_groups_review_notice(
    tmp_path: Path,
) -> None:
    """`/start cmd-stats` is how Telegram starts the private chat when the member taps
    "💬 Open a private chat with me": the bot may write to them from then on. It ran /stats
    without noting that, so a member who came only that way never got a group's review notice."""
    async with group_bot(tmp_path, seconds=30) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        member = h.emu.user(7501, "Lamine", language_code="en")
        group.add_member(member)
        mark = member.private.mark()
        await member.send("/start cmd-stats")  # the private chat's first message
        await member.private.next_message(after=mark)

        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        await member.tap(q1, LETTERS[(right_position(q1, quiz, 0) + 1) % 4])
        mark = member.private.mark()
        await admin.send("/stop", chat=group)
        notice = await member.private.next_message(after=mark)
        assert "joined your review queue" in notice.text, notice.text


async def test_the_add_me_to_a_group_link_posts_the_how_to_once(tmp_path: Path) -> None:
    """The "➕ Add me to a group" link (`?startgroup=true`) adds the bot, which posts its how-to;
    then Telegram's client sends `/start@bot true` in the group: that /start was answered with the
    how-to again, so every group set up that way began with it twice. A group the bot is
    already in gets the command only, and then the how-to, once; so does a member who adds
    it."""
    load_all()
    fr = translator("fr")
    hello = fr._("👋 Hello! I run short quizzes for this group.")
    async with group_bot(tmp_path) as h:
        admin = h.emu.user(7601, "Aïssatou", language_code="fr")
        member = h.emu.user(7602, "Moussa", language_code="wo")
        group = h.emu.group(-100_760, "Groupe d'étude")
        group.add_member(admin, "creator")
        group.add_member(member)

        async def how_tos_after(mark_id: int) -> int:
            # /top, sent after, is answered after the link's /start (one chat, in order)
            asked = await admin.send("/top", chat=group)
            await group.wait_for(lambda m: m.message_id > asked.message_id and "🏆" in m.text)
            return sum(m.text.startswith(hello) for m in group.bot_messages[mark_id:])

        await h.emu.add_bot_via_link(group, "true", by=admin)
        assert await how_tos_after(0) == 1, group.transcript(6)

        h.clock.advance(120)  # later, the link again: the bot is in already, the /start only
        mark = len(group.bot_messages)
        await h.emu.add_bot_via_link(group, "true", by=admin)
        assert await how_tos_after(mark) == 1, group.transcript(6)

        await h.emu.remove_bot_from_group(group, by=admin)
        h.clock.advance(120)
        mark = len(group.bot_messages)
        await h.emu.add_bot_via_link(group, "true", by=member)  # a member may add bots here
        assert await how_tos_after(mark) == 1, group.transcript(6)
