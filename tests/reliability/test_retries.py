"""One retry layer with one budget: a request is tried at most 1 + RETRIES times, however many
layers it passes, and a popup Telegram refuses never stops the work after it."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.tg.wire import retry
from tests.e2e.groups_kit import group_bot, make_group
from tests.reliability.support import QUIZ, bot_at, handler_errors


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retry, "FIRST_PAUSE", 0.01)


@pytest.mark.parametrize("rate_limit", [True, False])
async def test_a_request_refused_again_and_again_is_tried_within_one_budget(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, rate_limit: bool
) -> None:
    caplog.set_level(logging.INFO)
    async with bot_at(tmp_path, rate_limit=rate_limit) as h:
        user = h.emu.user(5030, "Ndeye")
        # A 429 was retried by the limiter (5 times) inside each of `patiently`'s 4 tries: 24.
        rule = h.emu.faults.add("sendMessage", "429", times=None, chat_id=user.id, retry_after=1)
        await user.send(f"/start {QUIZ}")
        # The question fails, then the apology does: both give up, each after its own budget.
        while not any("could not tell the user" in r.getMessage() for r in caplog.records):
            await asyncio.sleep(0.02)
        assert len(handler_errors(caplog)) == 1
        assert rule.hits == 2 * (1 + retry.RETRIES)


async def test_a_refused_group_popup_does_not_stop_the_quiz_an_admin_picked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send("/quiz", chat=group)
        picker = await group.next_message(after=mark)
        assert picker.buttons
        h.emu.faults.add("answerCallbackQuery", "query_too_old", times=1)
        mark = group.mark()
        await admin.tap(picker, picker.buttons[0][0].text, wait=False)
        await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark)
        assert not handler_errors(caplog)
