"""Forum supergroups: topics, `message_thread_id` on incoming and outgoing messages, and
Telegram's refusals (an unknown or deleted thread, a closed topic, a thread id in General)."""

from __future__ import annotations

import pytest
import telegram
from telegram.error import BadRequest

from bot.emulator import Emulator

FORUM = -100777


async def forum(emu: Emulator) -> tuple[int, int]:
    """A forum with the bot in it and two topics; their thread ids."""
    awa = emu.user(1001, "Awa")
    group = emu.group(FORUM, "Study forum", type="supergroup", forum=True)
    group.add_member(awa, "creator")
    await emu.add_bot_to_group(group, by=awa)
    return group.create_topic("Quizzes", by=awa), group.create_topic("Maths", by=awa)


async def test_topic_messages_carry_their_thread_both_ways(
    emu: Emulator, bot: telegram.Bot
) -> None:
    quizzes, maths = await forum(emu)
    awa, group = emu.user(1001), emu.chat(FORUM)
    seen = len(await bot.get_updates())
    await awa.send("/top", chat=group, thread=quizzes)
    await awa.send("/me", chat=group)  # General
    incoming = [u.message for u in (await bot.get_updates())[seen:] if u.message]
    in_topic, in_general = incoming
    assert in_topic.chat.is_forum and in_topic.is_topic_message
    assert in_topic.message_thread_id == quizzes
    # It replies to the topic's creation, which says the topic's name (as Telegram does).
    assert in_topic.reply_to_message is not None
    assert in_topic.reply_to_message.forum_topic_created is not None
    assert in_topic.reply_to_message.forum_topic_created.name == "Quizzes"
    assert not in_general.is_topic_message and in_general.message_thread_id is None

    sent = await bot.send_message(FORUM, "in maths", message_thread_id=maths)
    assert sent.message_thread_id == maths and sent.is_topic_message
    reply = await bot.send_message(FORUM, "a reply", reply_to_message_id=in_topic.message_id)
    assert reply.message_thread_id == quizzes  # a reply lands in its message's topic
    general = await bot.send_message(FORUM, "in General")
    assert general.message_thread_id is None
    assert [m.text for m in group.in_topic(maths)] == ["in maths"]
    assert [m.text for m in group.in_topic(None)] == ["in General"]


async def test_unknown_closed_and_general_threads_are_refused(
    emu: Emulator, bot: telegram.Bot
) -> None:
    quizzes, maths = await forum(emu)
    group = emu.chat(FORUM)
    for wrong in (424242, 1):  # no such topic; General (id 1 in Telegram) takes no thread id
        with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
            await bot.send_message(FORUM, "lost", message_thread_id=wrong)
    group.close_topic(quizzes)
    with pytest.raises(BadRequest, match=r"(?i)topic_closed"):
        await bot.send_message(FORUM, "closed", message_thread_id=quizzes)
    group.reopen_topic(quizzes)
    await bot.send_message(FORUM, "open again", message_thread_id=quizzes)
    group.delete_topic(maths)
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(FORUM, "deleted", message_thread_id=maths)
    # A supergroup without topics has no thread to name either.
    plain = emu.group(-100778, "Plain", type="supergroup")
    plain.add_member(emu.user(1001), "creator")
    await emu.add_bot_to_group(plain, by=emu.user(1001))
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(-100778, "no topics", message_thread_id=quizzes)


async def test_a_renamed_topic_is_told_once_and_its_creation_keeps_the_first_name(
    emu: Emulator, bot: telegram.Bot
) -> None:
    """As on Telegram: the rename is a forum_topic_edited service message in the topic, with
    only what changed; later messages there still reply to the creation, with the first name.
    Closing and reopening post service messages of their own, naming nothing."""
    quizzes, _ = await forum(emu)
    awa, group = emu.user(1001), emu.chat(FORUM)
    seen = len(await bot.get_updates())
    group.edit_topic(quizzes, name="Exam prep", by=awa)
    group.edit_topic(quizzes, icon_custom_emoji_id="5312536423851630001", by=awa)
    group.close_topic(quizzes, by=awa)
    group.reopen_topic(quizzes, by=awa)
    await awa.send("/top", chat=group, thread=quizzes)
    renamed, icon, closed, reopened, later = [
        u.message for u in (await bot.get_updates())[seen:] if u.message
    ]
    for service in (renamed, icon, closed, reopened):
        assert service.message_thread_id == quizzes and service.is_topic_message
        assert service.from_user is not None and service.from_user.id == 1001
    assert renamed.forum_topic_edited is not None
    assert renamed.forum_topic_edited.name == "Exam prep"
    assert renamed.forum_topic_edited.icon_custom_emoji_id is None
    assert icon.forum_topic_edited is not None and icon.forum_topic_edited.name is None
    assert icon.forum_topic_edited.icon_custom_emoji_id == "5312536423851630001"
    assert closed.forum_topic_closed is not None and reopened.forum_topic_reopened is not None
    assert later.reply_to_message is not None
    created = later.reply_to_message.forum_topic_created
    assert created is not None and created.name == "Quizzes"
