"""Chats a quiz cannot run in, or messages a command hides in: each gets a word, not silence.

Before: the bot added to a channel said nothing and stayed (a channel's posts are the channel's,
nobody there can tap an answer as themselves), and a photo or file captioned with a command in
a group got no reply at all.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.e2e.harness import Harness


@pytest.mark.parametrize("status", ["administrator", "member"])
async def test_added_to_a_channel_it_leaves_and_tells_who_added_it_why(
    harness: Harness, caplog: pytest.LogCaptureFixture, status: str
) -> None:
    emu = harness.emu
    awa = emu.user(6201, "Awa", language_code="fr")
    await awa.send("/start")  # a known learner: the bot may write to her
    await awa.private.wait_for(lambda m: bool(m.buttons))
    news = emu.channel(-1_006_201, "Awa's news")
    mark = awa.private.mark()
    with caplog.at_level(logging.INFO, logger="bot"):
        await emu.add_bot_to_channel(news, by=awa, status=status)
        told = await awa.private.next_message(after=mark)
    assert "Awa's news" in told.text and "groupe" in told.text, told.text  # in her language
    assert any("startgroup" in (b.url or "") for row in told.buttons for b in row)
    for _ in range(100):  # leaveChat comes with the message, not necessarily before it
        if news.bot_status == "left":
            break
        await emu_tick()
    assert news.bot_status == "left"
    assert [c for c in emu.calls("leaveChat") if c["chat_id"] in (news.id, str(news.id))]
    said = [r for r in caplog.records if r.name == "bot.tg.channel_handlers"]
    assert [r.levelno for r in said] == [logging.INFO], caplog.text
    assert news.bot_messages == []  # nothing posted in the channel


async def test_added_to_a_channel_by_someone_unknown_it_only_leaves(harness: Harness) -> None:
    emu = harness.emu
    stranger = emu.user(6202, "Bintou")  # never wrote to the bot: Telegram would refuse a send
    news = emu.channel(-1_006_202, "News")
    await emu.add_bot_to_channel(news, by=stranger)
    for _ in range(100):
        if news.bot_status == "left":
            break
        await emu_tick()
    assert news.bot_status == "left"
    assert emu.calls("sendMessage") == []
    assert not stranger.started


async def emu_tick() -> None:
    await asyncio.sleep(0.05)


async def test_a_command_in_a_photos_or_files_caption_in_a_group_gets_a_hint(
    harness: Harness,
) -> None:
    """A caption's command reaches the bot (a bot_command caption entity; in privacy mode too)
    but no command handler reads captions: a member's photo captioned /top got nothing."""
    emu = harness.emu
    ada = emu.user(6301, "Ada", language_code="en")
    awa = emu.user(6302, "Awa", language_code="fr")
    group = emu.group(-1_006_301, "Study group")
    group.add_member(ada, "creator")
    group.add_member(awa)
    await emu.add_bot_to_group(group, by=ada)
    await group.wait_for(lambda m: "/push" in m.text)  # the how-to
    mark = group.mark()
    await awa.send_attachment("photo", caption="/top", chat=group)
    hint = await group.next_message(after=mark)
    assert "/top" in hint.text and "légende" in hint.text, hint.text  # in her language
    mark = group.mark()
    await ada.send_document("notes.txt", b"hello", caption="/top@quizbot_test_bot", chat=group)
    hint = await group.next_message(after=mark)
    assert "/top" in hint.text and "file" in hint.text, hint.text
    # A command for another bot is not ours; /upload with a file is the upload, as before.
    mark = group.mark()
    await ada.send_attachment("photo", caption="/top@other_bot", chat=group)
    await ada.send_document("quiz.txt", b"not a quiz", caption="/upload", chat=group)
    reply = await group.next_message(after=mark)
    assert "/top" not in reply.text, reply.text
