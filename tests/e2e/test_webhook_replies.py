"""Behind a webhook, a tap's popup rides on the webhook's response (bot/webhook_replies.py): the
learner sees the same popups, and the bot sends no answerCallbackQuery of its own for them.

The bot serves its webhook (one process, SQLite); `Bridge` plays Telegram's delivery, making
the method a response carries as Telegram does, and counts those it made."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from bot.bench.webhook import SECRET, Bridge, free_port
from bot.emulator import Emulator
from bot.tg.options import BotOptions
from bot.webhook_replies import WebhookReplies
from tests.e2e.harness import TOKEN, compose_bot, shipped_catalog


async def _popups_over_webhook(tmp_path: Path, wait: float) -> tuple[list[str], int, int]:
    """A learner's first language tap and a forged tap, over the webhook: their popups, the
    calls Telegram made from webhook responses, and the answerCallbackQuery requests the bot
    sent itself."""
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = compose_bot(BotOptions(token=TOKEN, db_path=tmp_path / "w.sqlite3",
                                     catalog=shipped_catalog(), base_url=emu.base_url,
                                     rate_limit=False, webhook_reply_wait=wait))  # fmt: skip
        port = free_port()
        await bot.start(polling=False)
        bridge = Bridge(emu, TOKEN, port)
        try:
            await bot.serve_webhook(SECRET, "127.0.0.1", port)
            bridge.start()
            user = emu.user(4101, "Awa", language_code="fr")
            await user.send("/start")
            picker = await user.private.wait_for(lambda m: bool(m.buttons))
            language = await user.tap(picker, text="✓ Français")
            forged = await user.tap(picker, callback_data="zz:nothing")
            assert language is not None and forged is not None
            made = len(emu.calls("answerCallbackQuery"))  # by the bot, or by Telegram for it
            return [language.text or "", forged.text or ""], bridge.replies, made - bridge.replies
        finally:
            await bridge.stop()
            await bot.stop()


async def test_a_taps_popup_rides_on_the_webhook_response(tmp_path: Path) -> None:
    popups, carried, sent = await _popups_over_webhook(tmp_path / "on", 0.5)
    alone, carried_off, sent_off = await _popups_over_webhook(tmp_path / "off", 0)
    assert popups == alone  # the learner sees the same popups either way
    assert all(popups), popups  # the forged tap is told something too
    assert carried == 2  # both popups came back in the webhook's responses
    assert sent == 0  # and the bot sent none itself
    assert (carried_off, sent_off) == (0, 2)  # QUIZBOT_WEBHOOK_REPLY_WAIT=0: requests


async def test_a_popup_offered_after_the_wait_goes_as_its_own_request() -> None:
    """The response does not wait past `wait`: Telegram is told 200, and the popup that comes
    later is not swallowed (the transport sends it as a request)."""
    replies = WebhookReplies(wait=0.05)
    slot = replies.expect("q1")
    assert slot is not None
    response = await replies.respond("q1", slot)
    assert isinstance(response, web.Response) and response.text == "ok"
    assert not replies.offer("answerCallbackQuery", {"callback_query_id": "q1", "text": "✅"})
    assert not replies.expecting


async def test_a_popup_in_time_is_the_response_and_a_second_copy_waits_for_nothing() -> None:
    replies = WebhookReplies(wait=5)
    slot = replies.expect("q2")
    assert slot is not None
    assert replies.expect("q2") is None  # Telegram's second copy of the update: answered "ok"
    assert replies.offer("answerCallbackQuery", {"callback_query_id": "q2", "text": "✅"})
    response = await replies.respond("q2", slot)
    assert response.content_type == "application/json"
    assert (
        response.body
        == b'{"method":"answerCallbackQuery","callback_query_id":"q2","text":"\xe2\x9c\x85"}'
    )


async def test_the_webhook_asks_telegram_for_all_the_connections_it_allows(tmp_path: Path) -> None:
    """A tap's request stays open until its popup rides on the answer: at Telegram's default
    of 40 connections, 40 taps in flight would be all the bot could be sent at once."""
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = compose_bot(BotOptions(token=TOKEN, db_path=tmp_path / "c.sqlite3",
                                     catalog=shipped_catalog(), base_url=emu.base_url,
                                     rate_limit=False))  # fmt: skip
        await bot.start_webhook("https://example.org/telegram", SECRET, "127.0.0.1", free_port())
        try:
            assert (await bot.app.bot.get_webhook_info()).max_connections == 100
        finally:
            await bot.stop()
