"""The order of the bot's handlers (bot/tg/handler_order.py): a button tap is taken by the first
handlers PTB tries, and no other handler could take one, so putting them first changed no
update's handler. Checked with each handler's own `check_update`, as PTB checks them, on taps
whose tapped message starts with a command (Telegram sends the message under the button, and a
`CommandHandler` looks at `effective_message`, which a tap has), in private and in a group."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from telegram import Update
from telegram.ext import BaseHandler, CallbackQueryHandler

from bot.content import default_content_dir, load_catalog
from bot.emulator import Emulator
from bot.tg.app import QuizBot
from bot.tg.options import BotOptions
from tests.e2e.harness import compose_bot

TOKEN = "123:order"
CHATS = [{"id": 7, "type": "private"}, {"id": -100, "type": "supergroup", "title": "G"}]
TEXTS = ["/start quiz", "/stop", "Question 1/4\nPick one.", "12"]


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[QuizBot]:
    async with Emulator(token=TOKEN, flood=None) as emu:
        options = BotOptions(
            token=TOKEN,
            db_path=tmp_path / "db",
            catalog=load_catalog(default_content_dir()),
            base_url=emu.base_url,
            rate_limit=False,
        )
        quizbot = compose_bot(options)
        await quizbot.app.bot.initialize()  # its username: a command's check reads it
        try:
            yield quizbot
        finally:
            await quizbot.app.bot.shutdown()


def _message(chat: dict[str, Any], text: str) -> dict[str, Any]:
    command = text.split()[0]
    entities = [{"type": "bot_command", "offset": 0, "length": len(command)}]
    return {
        "message_id": 5,
        "date": 1_790_000_000,
        "chat": chat,
        "from": {"id": 7, "is_bot": False, "first_name": "A"},
        "text": text,
        **({"entities": entities} if text.startswith("/") else {}),
    }


def _tap(bot: QuizBot, chat: dict[str, Any], text: str, data: str) -> Update:
    shown = _message(chat, text) | {"from": {"id": 1, "is_bot": True, "first_name": "Bot"}}
    query = {"id": "q1", "from": {"id": 7, "is_bot": False, "first_name": "A"}, "data": data}
    update = {"update_id": 1, "callback_query": query | {"chat_instance": "c", "message": shown}}
    return Update.de_json(update, bot.app.bot)


def _takers(bot: QuizBot, update: Update) -> list[BaseHandler[Any, Any, Any]]:
    return [h for h in bot.app.handlers[0] if h.check_update(update)]


@pytest.mark.parametrize("data", ["ans:1:0:2", "next:1:1", "g:3:0:1", "forget:yes", "junk"])
async def test_a_tap_is_taken_by_the_first_handlers_and_by_no_other(
    bot: QuizBot, data: str
) -> None:
    first = bot.app.handlers[0][:2]
    assert all(isinstance(h, CallbackQueryHandler) for h in first)
    for chat in CHATS:
        for text in TEXTS:
            takers = _takers(bot, _tap(bot, chat, text, data))
            assert takers, (chat["type"], text, data)
            assert all(isinstance(h, CallbackQueryHandler) for h in takers)
            assert takers[0] in first  # PTB runs the first that matches: one of the first two


async def test_no_message_is_taken_by_a_button_handler(bot: QuizBot) -> None:
    for chat in CHATS:
        for text in TEXTS:
            update = Update.de_json({"update_id": 2, "message": _message(chat, text)}, bot.app.bot)
            takers = _takers(bot, update)
            assert not any(isinstance(h, CallbackQueryHandler) for h in takers)


async def test_an_edit_sent_anyway_stops_before_every_handler(bot: QuizBot) -> None:
    """The bot asks for no edits (allowed_updates), but a server may send one anyway: the first
    handler of group -1 takes it and stops it there (edit_ignored raises ApplicationHandlerStop),
    and a new message passes that handler by."""
    for chat in CHATS:
        for text in TEXTS:
            edited = {"update_id": 3, "edited_message": _message(chat, text) | {"edit_date": 1}}
            first = bot.app.handlers[-1][0]
            assert first.check_update(Update.de_json(edited, bot.app.bot)), (chat, text)
            new = Update.de_json({"update_id": 4, "message": _message(chat, text)}, bot.app.bot)
            assert not first.check_update(new), (chat, text)
