"""Groups: membership updates, ChatMember shapes, privacy mode, anonymous admins, migration."""

from __future__ import annotations

import pytest
import telegram
from telegram.constants import ChatMemberStatus

from bot.emulator import Emulator
from bot.emulator.serialize import member_json
from bot.emulator.state import GROUP_ANONYMOUS_BOT_ID, MEMBER_STATUSES, UserState


@pytest.mark.parametrize("status", MEMBER_STATUSES)
def test_chat_member_json_round_trips_through_ptb(status: str) -> None:
    data = member_json(UserState(7, "Awa", username="awa"), status)
    member = telegram.ChatMember.de_json(data, None)
    assert member.status == status
    assert member.user.id == 7
    assert member.api_kwargs == {}  # nothing PTB does not know


async def setup_group(emu: Emulator) -> None:
    awa = emu.user(1001, "Awa")
    group = emu.group(-100123, "Study group")
    group.add_member(awa, "creator")
    group.add_member(emu.user(1002, "Bintou"), "member")
    await emu.add_bot_to_group(group, by=awa)


async def test_adding_and_removing_the_bot(emu: Emulator, bot: telegram.Bot) -> None:
    await setup_group(emu)
    awa = emu.user(1001)
    joined, service = await bot.get_updates()
    assert joined.my_chat_member is not None
    assert joined.my_chat_member.old_chat_member.status == ChatMemberStatus.LEFT
    assert joined.my_chat_member.new_chat_member.status == ChatMemberStatus.MEMBER
    assert joined.my_chat_member.from_user.id == awa.id
    assert joined.my_chat_member.chat.title == "Study group"
    assert service.message is not None
    assert [u.id for u in service.message.new_chat_members] == [123456]
    await emu.remove_bot_from_group(-100123, by=awa)
    (left,) = await bot.get_updates(offset=service.update_id + 1)
    assert left.my_chat_member is not None
    assert left.my_chat_member.new_chat_member.status == ChatMemberStatus.LEFT


async def test_privacy_mode_delivers_commands_only(emu: Emulator, bot: telegram.Bot) -> None:
    await setup_group(emu)
    awa, bintou = emu.user(1001), emu.user(1002)
    seen = len(await bot.get_updates())
    await awa.send("hello everyone", chat=-100123)
    await awa.send("/push@quizbot_test_bot x", chat=-100123)
    await awa.send("/other@another_bot", chat=-100123)
    await bintou.send("/stats", chat=-100123)
    texts = [u.message.text for u in (await bot.get_updates())[seen:] if u.message]
    assert texts == ["/push@quizbot_test_bot x", "/stats"]
    group = emu.chat(-100123)
    assert len([m for m in group.messages if not m.from_bot and not m.service]) == 4


async def test_command_entity_covers_the_bot_name(emu: Emulator, bot: telegram.Bot) -> None:
    await setup_group(emu)
    await emu.user(1001).send("/push@quizbot_test_bot guide-1", chat=-100123)
    update = (await bot.get_updates())[-1]
    assert update.message is not None
    assert update.message.parse_entities(["bot_command"]).popitem()[1] == "/push@quizbot_test_bot"


async def test_anonymous_admin(emu: Emulator, bot: telegram.Bot) -> None:
    await setup_group(emu)
    await emu.chat(-100123).send_as_anonymous_admin("/push x")
    message = (await bot.get_updates())[-1].message
    assert message is not None
    assert message.from_user is not None and message.from_user.id == GROUP_ANONYMOUS_BOT_ID
    assert message.from_user.username == "GroupAnonymousBot"
    assert message.sender_chat is not None and message.sender_chat.id == message.chat.id


async def test_members_and_administrators(emu: Emulator, bot: telegram.Bot) -> None:
    await setup_group(emu)
    creator = await bot.get_chat_member(-100123, 1001)
    assert creator.status == ChatMemberStatus.OWNER
    assert (await bot.get_chat_member(-100123, 1002)).status == ChatMemberStatus.MEMBER
    outsider = emu.user(1003, "Chidi")
    assert (await bot.get_chat_member(-100123, outsider.id)).status == ChatMemberStatus.LEFT
    assert (await bot.get_chat_member(-100123, 123456)).status == ChatMemberStatus.MEMBER
    admins = await bot.get_chat_administrators(-100123)
    assert [a.user.id for a in admins] == [1001]
    with pytest.raises(telegram.error.BadRequest, match="User not found"):
        await bot.get_chat_member(-100123, 999999)
    chat = await bot.get_chat(-100123)
    assert (chat.id, chat.type, chat.title) == (-100123, "group", "Study group")
    assert chat.api_kwargs == {}
    assert (await bot.get_chat(1001)).first_name == "Awa"


async def test_migration_sequence(emu: Emulator, bot: telegram.Bot) -> None:
    await setup_group(emu)
    seen = len(await bot.get_updates())
    new_id = await emu.migrate_to_supergroup(-100123, by=emu.user(1001))
    old, new = [u.message for u in (await bot.get_updates())[seen:]]
    assert old is not None and new is not None
    assert (old.chat.id, old.migrate_to_chat_id) == (-100123, new_id)
    assert (new.chat.id, new.chat.type, new.migrate_from_chat_id) == (new_id, "supergroup", -100123)
    assert emu.chat(-100123).migrated_to == new_id
    with pytest.raises(ValueError, match="migrated"):
        await emu.user(1001).send("/push", chat=-100123)
    await emu.user(1001).send("/push", chat=new_id)


async def test_non_members_cannot_post(emu: Emulator) -> None:
    emu.group(-100123, "Study group")
    with pytest.raises(ValueError, match="not a member"):
        await emu.user(1001, "Awa").send("hi", chat=-100123)


async def test_admin_bot_sees_everything_and_restricted_bot_cannot_send(
    emu: Emulator, bot: telegram.Bot
) -> None:
    await setup_group(emu)
    awa = emu.user(1001)
    await emu.set_bot_status(-100123, "administrator", by=awa)
    seen = len(await bot.get_updates())
    await awa.send("just chatting", chat=-100123)
    assert [u.message.text for u in (await bot.get_updates())[seen:] if u.message] == [
        "just chatting"
    ]
    await emu.set_bot_status(-100123, "restricted", by=awa)
    with pytest.raises(telegram.error.BadRequest, match="Not enough rights"):
        await bot.send_message(-100123, "hi")
