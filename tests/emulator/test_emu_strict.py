"""Refusals Telegram makes that a lenient emulator would let through: keyboard size, edit-only
rules, the 48-hour delete window, a document's caption."""

from __future__ import annotations

import pytest
import telegram
from emu_support import FakeClock
from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Kb
from telegram.error import BadRequest

from bot.emulator import Emulator


async def started(emu: Emulator, user_id: int = 1001) -> int:
    await emu.user(user_id, "Awa", language_code="fr").send("/start")
    return user_id


def keyboard(buttons: int, per_row: int = 1) -> Kb:
    labels = [f"{n}" for n in range(buttons)]
    rows = [labels[i : i + per_row] for i in range(0, buttons, per_row)]
    return Kb([[Btn(label, callback_data=label) for label in row] for row in rows])


@pytest.mark.parametrize("per_row", [1, 5])
async def test_an_inline_keyboard_holds_at_most_100_buttons(
    emu: Emulator, bot: telegram.Bot, per_row: int
) -> None:
    chat_id = await started(emu)
    sent = await bot.send_message(chat_id, "100", reply_markup=keyboard(100, per_row))
    with pytest.raises(BadRequest, match=r"(?i)reply markup is too long"):
        await bot.send_message(chat_id, "101", reply_markup=keyboard(101, per_row))
    with pytest.raises(BadRequest, match=r"(?i)reply markup is too long"):
        await bot.edit_message_reply_markup(chat_id, sent.message_id, reply_markup=keyboard(101))
    assert [m.text for m in emu.chat(chat_id).bot_messages] == ["100"]


async def test_edits_take_an_inline_keyboard_only(emu: Emulator, bot: telegram.Bot) -> None:
    chat_id = await started(emu)
    sent = await bot.send_message(chat_id, "Q", reply_markup=keyboard(1))
    force = telegram.ForceReply()
    with pytest.raises(BadRequest, match=r"(?i)inline keyboard expected"):
        await bot.edit_message_text("R", chat_id, sent.message_id, reply_markup=force)
    with pytest.raises(BadRequest, match=r"(?i)inline keyboard expected"):
        await bot.edit_message_reply_markup(
            chat_id, sent.message_id, reply_markup=telegram.ReplyKeyboardRemove()
        )
    assert emu.chat(chat_id).message(sent.message_id).text == "Q"


async def test_an_edit_over_the_limit_is_refused_in_the_edit_s_words(
    emu: Emulator, bot: telegram.Bot
) -> None:
    chat_id = await started(emu)
    sent = await bot.send_message(chat_id, "short")
    with pytest.raises(BadRequest, match=r"(?i)^message_too_long$"):
        await bot.edit_message_text("x" * 4097, chat_id, sent.message_id)
    await bot.edit_message_text("x" * 4096, chat_id, sent.message_id)


async def test_a_message_can_be_deleted_for_48_hours_only(
    emu: Emulator, bot: telegram.Bot, clock: FakeClock
) -> None:
    chat_id = await started(emu)
    old = await bot.send_message(chat_id, "old")
    recent = await bot.send_message(chat_id, "recent")
    clock.advance(47 * 3600)
    recent_enough = await bot.send_message(chat_id, "recent enough")
    clock.advance(3600)
    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
        await bot.delete_message(chat_id, old.message_id)
    assert not emu.chat(chat_id).message(old.message_id).deleted
    assert await bot.delete_message(chat_id, recent_enough.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
        await bot.delete_message(chat_id, recent.message_id)


async def test_a_supergroup_admin_deletes_older_messages(
    emu: Emulator, bot: telegram.Bot, clock: FakeClock
) -> None:
    awa = emu.user(1001, "Awa")
    group = emu.group(-100123, "Study", type="supergroup")
    group.add_member(awa, "creator")
    await emu.add_bot_to_group(group, by=awa, status="administrator")
    sent = await bot.send_message(group.id, "old")
    clock.advance(72 * 3600)
    assert await bot.delete_message(group.id, sent.message_id)


async def test_a_document_caption_is_html_up_to_1024_characters(
    emu: Emulator, bot: telegram.Bot
) -> None:
    chat_id = await started(emu)
    sent = await bot.send_document(
        chat_id, telegram.InputFile(b"a,b\n", filename="x.csv"), caption="<b>Export</b>",
        parse_mode="HTML",
    )  # fmt: skip
    assert sent.caption == "Export" and sent.caption_entities[0].type == "bold"
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_document(chat_id, sent.document.file_id, caption="1 < 2", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)caption is too long"):
        await bot.send_document(chat_id, sent.document.file_id, caption="x" * 1025)


async def test_a_command_menu_holds_at_most_100_commands(emu: Emulator, bot: telegram.Bot) -> None:
    menu = [telegram.BotCommand(f"c{n}", "d") for n in range(101)]
    with pytest.raises(BadRequest, match=r"(?i)^bot_commands_too_much$"):
        await bot.set_my_commands(menu)
    await bot.set_my_commands(menu[:100])
    assert len(emu.commands()) == 100


@pytest.mark.parametrize(
    ("url", "secret", "error"),
    [
        ("https://example.org:8080/hook", None, "only on ports 80, 88, 443 or 8443"),
        ("https://example.org:88/hook", "bot:token", "secret token contains unallowed"),
        ("https://example.org/hook", "x" * 257, "secret token contains unallowed"),
    ],
)
async def test_a_webhook_needs_a_telegram_port_and_secret(
    emu: Emulator, bot: telegram.Bot, url: str, secret: str | None, error: str
) -> None:
    with pytest.raises(BadRequest, match=f"(?i){error}"):
        await bot.set_webhook(url, secret_token=secret)
    assert await bot.set_webhook("https://example.org:8443/hook", secret_token="s3cret-Token_1")
    assert (await bot.get_webhook_info()).url == "https://example.org:8443/hook"
