"""Inline mode in the emulator: inline_query updates, answerInlineQuery with Telegram's limits,
a picked result posted via the bot, getMe's flag, and the /start a startgroup link sends."""

from __future__ import annotations

import asyncio

import pytest
import telegram
from emu_support import FakeClock
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InlineQueryResultArticle
from telegram import InputTextMessageContent as Content
from telegram.error import BadRequest

from bot.emulator import Emulator, InlineAnswer


def article(result_id: str, title: str = "Quiz") -> InlineQueryResultArticle:
    keyboard = InlineKeyboardMarkup(
        [[InlineKeyboardButton("Take it", url=f"https://t.me/bot?start={result_id[:8]}")]]
    )
    return InlineQueryResultArticle(
        result_id, title, Content(f"<b>{title}</b>", parse_mode="HTML"), reply_markup=keyboard
    )


async def asked(
    emu: Emulator, bot: telegram.Bot, text: str
) -> tuple[asyncio.Task[InlineAnswer], str]:
    awa = emu.user(1001, "Awa", language_code="fr")
    waiting = asyncio.create_task(awa.inline(text, chat_type="supergroup"))
    update = [u for u in await bot.get_updates(timeout=5) if u.inline_query][-1]
    query = update.inline_query
    assert query is not None and query.query == text and query.chat_type == "supergroup"
    assert query.from_user.language_code == "fr"
    return waiting, query.id


async def test_inline_mode_is_off_until_switched_on(emu: Emulator, bot: telegram.Bot) -> None:
    assert (await bot.get_me()).supports_inline_queries is False
    with pytest.raises(ValueError, match="inline mode is off"):
        await emu.user(1001).inline("x")
    emu.supports_inline_queries = True
    assert (await bot.get_me()).supports_inline_queries is True


async def test_an_answer_is_kept_and_a_result_posted_via_the_bot(
    emu: Emulator, bot: telegram.Bot
) -> None:
    emu.supports_inline_queries = True
    waiting, query_id = await asked(emu, bot, "gradient")
    await bot.answer_inline_query(query_id, [article("q1", "Accumulation")], is_personal=True)
    answer = await waiting
    assert answer.titles == ["Accumulation"] and answer.is_personal
    assert emu.inline_answers == [answer]
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_inline_query(query_id, [])  # once only
    awa = emu.user(1001)
    group = emu.group(-100, "G", type="supergroup")
    group.add_member(awa)
    posted = await awa.post_inline(answer, "q1", chat=group)
    assert posted.text == "Accumulation" and posted.via_bot_id == emu.bot["id"]
    assert posted.buttons[0][0].url == "https://t.me/bot?start=q1"
    seen = await bot.get_updates()
    assert not [u for u in seen if u.message and u.message.via_bot]  # no update for the bot


async def test_telegrams_limits_on_an_answer(
    emu: Emulator, bot: telegram.Bot, clock: FakeClock
) -> None:
    emu.supports_inline_queries = True
    first, query_id = await asked(emu, bot, "x")
    with pytest.raises(BadRequest, match=r"(?i)results_too_much"):
        await bot.answer_inline_query(query_id, [article(f"r{n}") for n in range(51)])
    with pytest.raises(BadRequest, match=r"(?i)result_id_invalid"):
        await bot.answer_inline_query(query_id, [article("é" * 33)])  # 66 bytes
    with pytest.raises(BadRequest, match=r"(?i)result_id_duplicate"):
        await bot.answer_inline_query(query_id, [article("a"), article("a")])
    await bot.answer_inline_query(query_id, [article(f"r{n}") for n in range(50)])
    assert len((await first).results) == 50
    unanswered, late = await asked(emu, bot, "y")
    clock.advance(11)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_inline_query(late, [])
    unanswered.cancel()


async def test_a_startgroup_link_adds_the_bot_then_sends_start_with_the_payload(
    emu: Emulator, bot: telegram.Bot
) -> None:
    ada = emu.user(1001, "Ada")
    group = emu.group(-100, "G")
    group.add_member(ada, "creator")
    await emu.add_bot_via_link(group, "gradient-accumulation", by=ada)
    updates = await bot.get_updates()
    assert updates[0].my_chat_member is not None
    texts = [u.message.text for u in updates if u.message and u.message.text]
    assert texts == [f"/start@{emu.bot['username']} gradient-accumulation"]
    await emu.add_bot_via_link(group, "again", by=ada)  # already in: the command only
    again = [u for u in await bot.get_updates(offset=updates[-1].update_id + 1) if u.message]
    assert [u.message.text for u in again if u.message] == [f"/start@{emu.bot['username']} again"]
