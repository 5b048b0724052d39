"""Bot API answers our emulator does not give on its own, injected (`emu.faults`): each is
retried, degraded or told in one log line, never a traceback in the log."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.e2e.harness import Harness


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Log lines at ERROR or above, or carrying a traceback, from quizbot or PTB."""
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if (r.levelno >= logging.ERROR or r.exc_info) and r.name.startswith(("bot", "telegram"))
    ]


@pytest.mark.both_transports
@pytest.mark.parametrize("kind", ["502", "not_json", "drop", "409_conflict"])
async def test_a_failed_getupdates_is_one_line_and_polling_goes_on(
    harness: Harness, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    """Telegram's getUpdates answers 502 a few times a day (sometimes as nginx's HTML page), a
    connection drops, a second instance polls: PTB's updater retries each, and its default
    logged every one as an ERROR with a traceback."""
    user = harness.emu.user(3201, "Awa")
    await user.send("/help")
    await user.private.wait_for(lambda m: "/quizzes" in m.text)
    with caplog.at_level(logging.DEBUG):
        failing = harness.emu.faults.add("getUpdates", kind)
        await user.send("/quizzes")  # ends the poll in flight: the next one fails
        await user.private.wait_for(lambda m: "📚" in m.text)
        mark = user.private.mark()
        await user.send("/help")  # read by a poll after the failed one
        await user.private.next_message(after=mark, timeout=15)
    assert failing.hits == 1
    assert tracebacks(caplog) == []
    said = [r for r in caplog.records if r.name == "bot.tg.wire.polling"]
    assert len(said) == 1 and said[0].levelno == logging.WARNING, caplog.text


@pytest.mark.both_transports
async def test_a_send_answered_with_an_html_page_is_retried_without_a_traceback(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """A proxy's (or Telegram's nginx's) 502 page is no JSON: the send is retried like any 502,
    and PTB's own parser no longer logs an ERROR with a traceback on the way."""
    user = harness.emu.user(3202, "Awa")
    with caplog.at_level(logging.DEBUG):
        harness.emu.faults.add("sendMessage", "not_json", chat_id=user.id)
        await user.send("/help")
        await user.private.wait_for(lambda m: "/quizzes" in m.text)
    assert tracebacks(caplog) == []
    retried = [r.getMessage() for r in caplog.records if r.name == "bot.tg.wire.retry"]
    assert any("502" in line for line in retried), retried


async def test_a_reply_to_a_chat_gone_meanwhile_is_one_line_not_an_error(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """An account deleted (or a group deleted) between its update and the reply: Telegram says
    400 "chat not found". Like a blocked bot's 403 there is nobody left to tell and nothing to
    fix, so it is one INFO line, not an ERROR with a traceback and a "Sorry" sent nowhere."""
    user = harness.emu.user(3203, "Awa")
    await user.send("/help")
    await user.private.wait_for(lambda m: "/quizzes" in m.text)
    with caplog.at_level(logging.DEBUG):
        gone = harness.emu.faults.add("sendMessage", "400_chat_not_found", chat_id=user.id)
        await user.send("/quizzes")
        for _ in range(200):  # the list's send met the fault
            if gone.hits:
                break
            await asyncio.sleep(0.05)
        mark = user.private.mark()
        await user.send("/help")  # the bot goes on serving (here, the chat came back)
        await user.private.next_message(after=mark, timeout=15)
    assert tracebacks(caplog) == []
    said = [r.getMessage() for r in caplog.records if r.name == "bot.tg.error_handlers"]
    assert any("chat not found" in line.lower() for line in said), said
