"""Sending, editing, deleting and answering through a real PTB Bot over HTTP."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import telegram
from emu_support import TOKEN, FakeClock
from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Kb
from telegram.error import BadRequest, ChatMigrated, Forbidden

from bot.emulator import Emulator


def kb(*labels: str) -> Kb:
    return Kb([[Btn(label, callback_data=f"cb:{label}") for label in labels]])


async def started(emu: Emulator, user_id: int = 1001) -> int:
    user = emu.user(user_id, "Awa", language_code="fr", username="awa")
    await user.send("/start")
    return user_id


async def test_get_me_is_the_bot(bot: telegram.Bot) -> None:
    me = await bot.get_me()
    assert me.api_kwargs == {}
    assert (me.id, me.username, me.is_bot, me.can_join_groups) == (
        123456, "quizbot_test_bot", True, True
    )  # fmt: skip


async def test_send_message_round_trip(emu: Emulator, bot: telegram.Bot) -> None:
    chat_id = await started(emu)
    sent = await bot.send_message(chat_id, "<b>Question 1/8</b>\nWhat?", parse_mode="HTML",
                                  reply_markup=kb("A", "B"))  # fmt: skip
    assert sent.text == "Question 1/8\nWhat?"
    assert sent.api_kwargs == {}  # every field is one PTB knows
    assert sent.entities[0].type == "bold"
    assert sent.from_user.id == 123456 and sent.chat.id == chat_id
    assert sent.reply_markup == kb("A", "B")
    shown = emu.user(chat_id).private.last
    assert shown is not None
    assert shown.html == "<b>Question 1/8</b>\nWhat?"
    assert shown.text == "Question 1/8\nWhat?"
    assert [[b.text for b in row] for row in shown.buttons] == [["A", "B"]]
    assert shown.buttons[0][1].callback_data == "cb:B"


async def test_json_and_query_string_parameters(emu: Emulator) -> None:
    chat_id = await started(emu)
    async with httpx.AsyncClient() as client:
        url = f"{emu.base_url}{TOKEN}"
        by_json = await client.post(f"{url}/sendMessage", json={"chat_id": chat_id, "text": "j"})
        by_query = await client.get(f"{url}/SENDMESSAGE", params={"chat_id": chat_id, "text": "q"})
        wrong_token = await client.get(f"{emu.base_url}999:x/getMe")
        unknown = await client.get(f"{url}/sendTelepathy")
    assert by_json.json()["result"]["text"] == "j"
    assert by_query.json()["result"]["text"] == "q"
    assert wrong_token.status_code == 401
    assert wrong_token.json() == {"ok": False, "error_code": 401, "description": "Unauthorized"}
    assert unknown.status_code == 404
    assert unknown.json()["description"] == "Not Found"


async def test_edit_text_keeps_history_and_removes_keyboard_when_omitted(
    emu: Emulator, bot: telegram.Bot, clock: FakeClock
) -> None:
    chat_id = await started(emu)
    sent = await bot.send_message(chat_id, "Q1", reply_markup=kb("A"))
    clock.advance(5)
    edited = await bot.edit_message_text("Q1 ✅", chat_id, sent.message_id)
    assert edited.text == "Q1 ✅"
    assert edited.edit_date is not None
    assert edited.reply_markup is None  # Telegram drops the keyboard when none is passed
    shown = emu.chat(chat_id).message(sent.message_id)
    assert shown.edited and shown.buttons == ()
    assert [v.text for v in shown.history] == ["Q1"]
    await bot.edit_message_reply_markup(chat_id, sent.message_id, reply_markup=kb("B"))
    assert emu.chat(chat_id).message(sent.message_id).buttons[0][0].text == "B"


async def test_identical_edit_is_not_modified(emu: Emulator, bot: telegram.Bot) -> None:
    chat_id = await started(emu)
    sent = await bot.send_message(chat_id, "<i>same</i>", parse_mode="HTML", reply_markup=kb("A"))
    with pytest.raises(BadRequest, match=r"(?i)message is not modified: specified new message"):
        await bot.edit_message_text("<i>same</i>", chat_id, sent.message_id, parse_mode="HTML",
                                    reply_markup=kb("A"))  # fmt: skip
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_reply_markup(chat_id, sent.message_id, reply_markup=kb("A"))
    # same text but different formatting is a change
    await bot.edit_message_text("<b>same</b>", chat_id, sent.message_id, parse_mode="HTML",
                                reply_markup=kb("A"))  # fmt: skip


@pytest.mark.parametrize(
    ("text", "markup", "error"),
    [
        ("x", Kb([[Btn("A", callback_data="é" * 33)]]), "button_data_invalid"),  # 66 bytes
        ("x", Kb([[Btn("A", callback_data="")]]), "button_data_invalid"),
        ("x" * 4097, None, "message is too long"),
        ("  \n ", None, "message text is empty"),
        ("<b>unclosed", None, "can't parse entities: can't find end tag"),
        ("1 < 2", None, "can't parse entities: unsupported start tag"),
    ],
)
async def test_rejected_content(
    emu: Emulator, bot: telegram.Bot, text: str, markup: Kb | None, error: str
) -> None:
    chat_id = await started(emu)
    with pytest.raises(BadRequest) as caught:
        await bot.send_message(chat_id, text, parse_mode="HTML", reply_markup=markup)
    assert error in caught.value.message.lower()
    assert emu.chat(chat_id).bot_messages == []


async def test_callback_data_of_64_bytes_and_4096_chars_pass(
    emu: Emulator, bot: telegram.Bot
) -> None:
    chat_id = await started(emu)
    await bot.send_message(
        chat_id, "é" * 4096, reply_markup=Kb([[Btn("A", callback_data="é" * 32)]])
    )


async def test_wrong_chats_and_messages(emu: Emulator, bot: telegram.Bot) -> None:
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(424242, "hello")
    chat_id = await started(emu)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", chat_id, 999)
    user_message = emu.chat(chat_id).messages[0]
    with pytest.raises(BadRequest, match=r"(?i)message can't be edited"):
        await bot.edit_message_text("x", chat_id, user_message.message_id)
    sent = await bot.send_message(chat_id, "bye")
    assert await bot.delete_message(chat_id, sent.message_id)
    assert emu.chat(chat_id).message(sent.message_id).deleted
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(chat_id, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", chat_id, sent.message_id)


async def test_private_users_who_never_started_or_blocked(emu: Emulator, bot: telegram.Bot) -> None:
    stranger = emu.user(2002, "Bintou")
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await bot.send_message(stranger.id, "hi")
    await stranger.send("/start")
    await bot.send_message(stranger.id, "hi")
    stranger.block_bot()
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(stranger.id, "hi again")
    await stranger.send("/start")  # writing again unblocks
    await bot.send_message(stranger.id, "welcome back")


async def test_tap_and_answer(emu: Emulator, bot: telegram.Bot) -> None:
    chat_id = await started(emu)
    awa = emu.user(chat_id)
    sent = await bot.send_message(chat_id, "Q", reply_markup=kb("A", "B"))
    shown = await awa.private.wait_for(lambda m: m.text == "Q")
    tap = asyncio.create_task(awa.tap(shown, "B"))
    updates = await bot.get_updates(timeout=5)
    query = updates[-1].callback_query
    assert query is not None
    assert query.data == "cb:B" and query.from_user.id == chat_id
    assert query.message is not None and query.message.message_id == sent.message_id
    await bot.answer_callback_query(query.id, "Correct!", show_alert=True)
    answer = await tap
    assert answer is not None and (answer.text, answer.show_alert) == ("Correct!", True)
    with pytest.raises(BadRequest, match=r"(?i)query is too old and response timeout expired"):
        await bot.answer_callback_query(query.id, "again")
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query("12345", "unknown")


async def test_answer_text_limit_and_late_answer(
    emu: Emulator, bot: telegram.Bot, clock: FakeClock
) -> None:
    chat_id = await started(emu)
    awa = emu.user(chat_id)
    await bot.send_message(chat_id, "Q", reply_markup=kb("A"))
    await awa.tap(awa.private.last, "A", wait=False)  # type: ignore[arg-type]
    await awa.tap(awa.private.last, callback_data="forged:1:2", wait=False)  # type: ignore[arg-type]
    first, second = [u.callback_query for u in (await bot.get_updates())[-2:]]
    assert first is not None and second is not None and second.data == "forged:1:2"
    with pytest.raises(BadRequest, match=r"(?i)message_too_long"):
        await bot.answer_callback_query(first.id, "x" * 201)
    await bot.answer_callback_query(first.id, "x" * 200)
    clock.advance(16)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(second.id)


async def test_group_sends_need_membership_and_follow_migration(
    emu: Emulator, bot: telegram.Bot
) -> None:
    awa = emu.user(1001, "Awa")
    group = emu.group(-100123, "Study group")
    group.add_member(awa, "creator")
    with pytest.raises(Forbidden, match=r"(?i)bot is not a member of the group chat"):
        await bot.send_message(group.id, "hi")
    await emu.add_bot_to_group(group, by=awa)
    await bot.send_message(group.id, "hi")
    new_id = await emu.migrate_to_supergroup(group, by=awa)
    with pytest.raises(ChatMigrated) as caught:
        await bot.send_message(group.id, "hi")
    assert caught.value.new_chat_id == new_id
    await bot.send_message(new_id, "hi supergroup")
    assert emu.chat(new_id).last is not None
    await emu.remove_bot_from_group(new_id, by=awa, kicked=True)
    with pytest.raises(Forbidden, match=r"(?i)bot was kicked from the supergroup chat"):
        await bot.send_message(new_id, "hi")


async def test_mini_app_buttons_only_in_private_chats(emu: Emulator, bot: telegram.Bot) -> None:
    app = Kb([[Btn("📊", web_app=telegram.WebAppInfo("https://dash.example.org/"))]])
    chat_id = await started(emu)
    sent = await bot.send_message(chat_id, "stats", reply_markup=app)
    assert sent.reply_markup == app
    awa = emu.user(1001, "Awa")
    group = emu.group(-100124, "Study group")
    group.add_member(awa, "creator")
    await emu.add_bot_to_group(group, by=awa)
    with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
        await bot.send_message(group.id, "groupstats", reply_markup=app)
    link = Kb([[Btn("📊", url="https://t.me/quizbot_test_bot/dash?startapp=g-100124")]])
    await bot.send_message(group.id, "groupstats", reply_markup=link)


async def test_chat_action_and_reply(emu: Emulator, bot: telegram.Bot) -> None:
    chat_id = await started(emu)
    assert await bot.send_chat_action(chat_id, "typing")
    first = emu.chat(chat_id).messages[0]
    reply = await bot.send_message(chat_id, "re", reply_to_message_id=first.message_id)
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == first.message_id
    with pytest.raises(BadRequest, match=r"(?i)message to be replied not found"):
        await bot.send_message(chat_id, "re", reply_to_message_id=999)


async def test_force_reply_opens_a_reply_and_its_message_cannot_be_edited(
    emu: Emulator, bot: telegram.Bot
) -> None:
    chat_id = await started(emu)
    asked = await bot.send_message(
        chat_id, "Your answer?", reply_markup=telegram.ForceReply(input_field_placeholder="0,5")
    )
    shown = emu.user(chat_id).private.last
    assert shown is not None
    assert shown.reply_markup == {"force_reply": True, "input_field_placeholder": "0,5"}
    # Telegram edits only messages without markup or with an inline keyboard.
    with pytest.raises(BadRequest, match=r"(?i)message can't be edited"):
        await bot.edit_message_text("changed", chat_id=chat_id, message_id=asked.message_id)
    assert await bot.delete_message(chat_id, asked.message_id)
    with pytest.raises(BadRequest, match="input_field_placeholder"):
        await bot.send_message(
            chat_id, "?", reply_markup=telegram.ForceReply(input_field_placeholder="x" * 65)
        )


async def test_a_reply_carries_the_message_it_answers(emu: Emulator, bot: telegram.Bot) -> None:
    chat_id = await started(emu)
    asked = await bot.send_message(chat_id, "Your answer?", reply_markup=telegram.ForceReply())
    user = emu.user(chat_id)
    await user.send("0,5", reply_to=asked.message_id)
    updates = await bot.get_updates(timeout=0)
    replied = updates[-1].message
    assert replied is not None and replied.text == "0,5"
    assert replied.reply_to_message is not None
    assert replied.reply_to_message.message_id == asked.message_id
    assert replied.reply_to_message.text == "Your answer?"
