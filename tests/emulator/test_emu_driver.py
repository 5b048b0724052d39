"""The driver API: waiting on chats, tapping, observing requests; and a real PTB Application."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import telegram
from emu_support import TOKEN, fast_request
from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Kb
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from bot.emulator import Emulator, TapTimeout


async def test_wait_for_sees_existing_then_new_and_edited(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    await bot.send_message(awa.id, "Question 1/8")
    found = await awa.private.wait_for(lambda m: "Question 1/8" in m.text, timeout=1)
    assert found.from_bot
    mark = awa.private.mark()
    waiting = asyncio.create_task(awa.private.wait_for(lambda m: "✅" in m.text, after=mark))
    await asyncio.sleep(0)
    assert not waiting.done()
    await bot.edit_message_text("Question 1/8 ✅", awa.id, found.message_id)
    edited = await waiting
    assert edited.edited and edited.message_id == found.message_id
    assert found.text == "Question 1/8"  # snapshots do not change under the test's feet


async def test_next_message_ignores_edits_and_earlier_messages(
    emu: Emulator, bot: telegram.Bot
) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    old = await bot.send_message(awa.id, "old")
    waiting = asyncio.create_task(awa.private.next_message(timeout=2))
    await asyncio.sleep(0)
    await bot.edit_message_text("old, edited", awa.id, old.message_id)
    await bot.send_message(awa.id, "new")
    assert (await waiting).text == "new"
    mark = awa.private.mark()
    await bot.send_message(awa.id, "after mark")
    assert (await awa.private.next_message(after=mark)).text == "after mark"


async def test_wait_timeout_shows_the_chat(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    await bot.send_message(awa.id, "Bonjour", reply_markup=Kb([[Btn("Go", callback_data="go")]]))
    with pytest.raises(TimeoutError) as caught:
        await awa.private.wait_for(lambda m: "never" in m.text, timeout=0.05)
    assert "#2 bot: Bonjour  [Go]" in str(caught.value)


async def test_tap_errors(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    markup = Kb([[Btn("A", callback_data="a"), Btn("Guide", url="https://example.org")]])
    await bot.send_message(awa.id, "Q", reply_markup=markup)
    msg = awa.private.last
    assert msg is not None
    with pytest.raises(LookupError, match="no button 'Z'"):
        await awa.tap(msg, "Z")
    with pytest.raises(ValueError, match="opens a URL"):
        await awa.tap(msg, "Guide")
    with pytest.raises(TapTimeout, match="did not answer callback query"):
        await awa.tap(msg, "A", timeout=0.05)
    await bot.delete_message(awa.id, msg.message_id)
    with pytest.raises(LookupError, match="is gone"):
        await awa.tap(msg, "A")


async def test_request_log_and_hook(emu: Emulator, bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    seen: list[tuple[str, float]] = []
    remove = emu.on_request(lambda method, params, at: seen.append((method, at)))
    await bot.send_message(awa.id, "hi")
    with pytest.raises(telegram.error.BadRequest):
        await bot.send_message(awa.id, "")  # PTB sends it; Telegram refuses
    remove()
    await bot.send_message(awa.id, "unhooked")
    assert [method for method, _ in seen] == ["sendMessage"]
    assert seen[0][1] <= time.perf_counter()
    assert [p["text"] for p in emu.calls("sendmessage")] == ["hi", "", "unhooked"]
    assert emu.requests[-1].method == "sendMessage"
    assert emu.stats.errors["sendMessage", 400] == 1


async def start_command(update: telegram.Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    keyboard = Kb([[Btn("A", callback_data="ans:A"), Btn("B", callback_data="ans:B")]])
    await context.bot.send_message(update.effective_chat.id, "<b>Question 1/1</b>",
                                   parse_mode="HTML", reply_markup=keyboard)  # fmt: skip


async def on_answer(update: telegram.Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer(f"You chose {query.data[-1]}")  # answer first, then work
    await query.edit_message_text(f"Question 1/1 ✅ {query.data[-1]}")


async def test_polling_application_answers_a_tap(emu: Emulator) -> None:
    app: Application[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder()
        .token(TOKEN)
        .base_url(emu.base_url)
        .request(fast_request())
        .get_updates_request(fast_request())
        .build()
    )
    app.add_handler(CommandHandler("start", start_command))
    app.add_handler(CallbackQueryHandler(on_answer, pattern=r"^ans:"))
    awa = emu.user(1001, "Awa", language_code="fr")
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=10)
        try:
            await awa.send("/start")
            question = await awa.private.wait_for(lambda m: "Question 1/1" in m.text)
            answer = await awa.tap(question, "B")
            assert answer is not None and answer.text == "You chose B"
            done = await awa.private.wait_for(lambda m: "✅" in m.text)
            assert done.message_id == question.message_id and done.buttons == ()
        finally:
            await app.updater.stop()
            await app.stop()
