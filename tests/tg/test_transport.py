"""The HTTP transport against the local emulator (a real HTTP server): what PTB sees on success,
on each Telegram error, on timeouts, dropped connections and uploads.

Every case runs on quizbot's `AiohttpRequest` and on PTB's own `HTTPXRequest` with the same
expectations: the transport must be a drop-in replacement.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import socket
from collections.abc import AsyncIterator, Callable

import pytest
import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.request import BaseRequest, HTTPXRequest

from bot.config import TRANSPORTS as SETTING_CHOICES
from bot.config import ConfigError, Settings
from bot.emulator import Emulator
from bot.emulator.faults import MIGRATED_TO
from bot.tg.wire.transport import TRANSPORTS, AiohttpRequest, HttpxRequest

TOKEN = "123456:TRANSPORT-token-never-shown"
USER = 1001

Factory = Callable[..., BaseRequest]
FACTORIES: dict[str, Factory] = {"aiohttp": AiohttpRequest, "httpx": HTTPXRequest}


@pytest.fixture(params=sorted(FACTORIES))
def factory(request: pytest.FixtureRequest) -> Factory:
    return FACTORIES[request.param]


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator(token=TOKEN, flood=None) as emulator:
        await emulator.user(USER, "Awa").send("/start")  # the bot may write to Awa
        yield emulator


def make_bot(emu: Emulator, request: BaseRequest, token: str = TOKEN) -> telegram.Bot:
    return telegram.Bot(token, base_url=emu.base_url, request=request)


async def test_send_parse_and_raw_result(emu: Emulator, factory: Factory) -> None:
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="ans:1:0:0")]])
    async with make_bot(emu, factory()) as bot:
        message = await bot.send_message(USER, "<b>Q1</b> é", parse_mode="HTML",
                                         reply_markup=keyboard)  # fmt: skip
        assert isinstance(message, telegram.Message)
        assert message.text == "Q1 é" and message.chat_id == USER
        raw = await bot.do_api_request(
            "sendmessage", api_kwargs={"chat_id": USER, "text": "plain"}, return_type=None
        )
        assert isinstance(raw, dict) and raw["text"] == "plain"
    shown = emu.user(USER, "Awa").private.last
    assert shown is not None and shown.text == "plain"
    first = emu.user(USER, "Awa").private.message(message.message_id)
    assert first.buttons[0][0].callback_data == "ans:1:0:0"


async def test_connections_are_kept_alive(emu: Emulator, factory: Factory) -> None:
    async with make_bot(emu, factory(connection_pool_size=1)) as bot:  # getMe: one request
        for i in range(5):
            await bot.send_message(USER, f"message {i}")
    assert len(emu.stats.connections) == 1, emu.stats.connections


@pytest.mark.parametrize(
    ("kind", "error", "text"),
    [
        ("400_chat_not_found", BadRequest, "Chat not found"),
        ("not_modified", BadRequest, "Message is not modified"),
        ("403_blocked", Forbidden, "Forbidden: bot was blocked by the user"),
        ("500", NetworkError, "Internal Server Error"),
        ("502", NetworkError, "Bad Gateway"),
        ("409_conflict", Conflict, "Conflict: terminated by other getUpdates request"),
        ("401_unauthorized", InvalidToken, "Unauthorized"),
    ],
)
async def test_telegram_errors_become_ptb_exceptions(
    emu: Emulator, factory: Factory, kind: str, error: type[TelegramError], text: str
) -> None:
    async with make_bot(emu, factory()) as bot:
        emu.faults.add("sendMessage", kind)
        with pytest.raises(error) as caught:
            await bot.send_message(USER, "hello")
        assert text.lower() in caught.value.message.lower()
        if error is NetworkError:
            assert not isinstance(caught.value, BadRequest | TimedOut)
        await bot.send_message(USER, "the next request is fine")


async def test_429_carries_retry_after(emu: Emulator, factory: Factory) -> None:
    async with make_bot(emu, factory()) as bot:
        emu.faults.add("sendMessage", "429", retry_after=7)
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(USER, "hello")
        assert caught.value.retry_after == dt.timedelta(seconds=7)


async def test_a_migrated_group_names_its_supergroup(emu: Emulator, factory: Factory) -> None:
    async with make_bot(emu, factory()) as bot:
        emu.faults.add("sendMessage", "400_migrated")
        with pytest.raises(ChatMigrated) as caught:
            await bot.send_message(USER, "hello")
        assert caught.value.new_chat_id == MIGRATED_TO


async def test_a_wrong_token_is_invalid(emu: Emulator, factory: Factory) -> None:
    with pytest.raises(InvalidToken):
        async with make_bot(emu, factory(), token="999:wrong"):
            pass


async def test_read_timeout_is_timed_out(emu: Emulator, factory: Factory) -> None:
    async with make_bot(emu, factory(read_timeout=0.3)) as bot:
        emu.faults.add("sendMessage", "timeout", delay=30)
        with pytest.raises(TimedOut):
            await bot.send_message(USER, "default read timeout")
        emu.faults.add("sendMessage", "timeout", delay=30)
        with pytest.raises(TimedOut):
            await bot.send_message(USER, "per call", read_timeout=0.2)
        await bot.send_message(USER, "and then it works again")


async def test_full_pool_waits_pool_timeout(emu: Emulator, factory: Factory) -> None:
    async with make_bot(emu, factory(connection_pool_size=1, pool_timeout=0.2)) as bot:
        emu.faults.add("sendMessage", "delay", delay=1.0)
        slow = asyncio.create_task(bot.send_message(USER, "slow"))
        await asyncio.sleep(0.3)  # the slow one holds the only connection
        with pytest.raises(TimedOut) as caught:
            await bot.send_message(USER, "no room")
        assert "pool timeout" in caught.value.message.lower()
        assert (await slow).text == "slow"


async def test_dropped_connection_is_a_network_error(emu: Emulator, factory: Factory) -> None:
    async with make_bot(emu, factory()) as bot:
        emu.faults.add("sendMessage", "drop")
        with pytest.raises(NetworkError) as caught:
            await bot.send_message(USER, "lost")
        assert not isinstance(caught.value, TimedOut | BadRequest)
        assert TOKEN not in str(caught.value)
        await bot.send_message(USER, "a new connection")


async def test_refused_connection_never_shows_the_token(factory: Factory) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bot = telegram.Bot(TOKEN, base_url=f"http://127.0.0.1:{port}/bot", request=factory())
    with pytest.raises(NetworkError) as caught:
        await bot.initialize()
    assert TOKEN not in str(caught.value) and TOKEN not in repr(caught.value)
    await bot.shutdown()


async def test_document_upload_arrives_intact(emu: Emulator, factory: Factory) -> None:
    content = "answers,é\n".encode() * 1000 + bytes(range(256))
    async with make_bot(emu, factory()) as bot:
        message = await bot.send_document(
            USER, InputFile(content, filename="answers.csv"), caption="export"
        )
        assert message.document is not None and message.caption == "export"
        assert message.document.file_name == "answers.csv"
        assert message.document.file_size == len(content)
        upload = emu.world.files[message.document.file_id]
        assert upload.data == content and upload.filename == "answers.csv"
        again = await bot.send_document(USER, message.document.file_id)  # by file_id: JSON
        assert again.document is not None
        assert again.document.file_id == message.document.file_id


@pytest.mark.parametrize("request_class", [AiohttpRequest, HttpxRequest])
def test_parse_json_payload_matches_ptb(request_class: type[BaseRequest]) -> None:
    parse = request_class.parse_json_payload
    payload = b'{"ok":true,"result":{"text":"caf\\u00e9 \xc3\xa9"}}'
    assert parse(payload) == BaseRequest.parse_json_payload(payload)
    bad_utf8 = b'{"ok":true,"result":"\xff"}'  # orjson refuses it; PTB replaces the byte
    assert parse(bad_utf8) == BaseRequest.parse_json_payload(bad_utf8)
    with pytest.raises(TelegramError, match="Invalid server response"):
        parse(b"<html>502 Bad Gateway</html>")


def test_transport_setting() -> None:
    assert Settings.from_env({}).transport == "aiohttp"
    assert Settings.from_env({"QUIZBOT_TRANSPORT": "HTTPX"}).transport == "httpx"
    with pytest.raises(ConfigError, match="QUIZBOT_TRANSPORT"):
        Settings.from_env({"QUIZBOT_TRANSPORT": "curl"})
    assert SETTING_CHOICES == TRANSPORTS
