"""An update delivered again after a restart (a poller killed before confirming it, a webhook
retry) acts once: the ids whose writes were committed are kept in the database."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tests.reliability.support import QUIZ, bot_at, start_quiz


async def test_a_deep_link_start_delivered_again_after_a_restart_acts_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.tg.repeated_updates")
    async with bot_at(tmp_path) as h:
        user = h.emu.user(5020, "Ousmane")
        await start_quiz(user)
        start_update = h.emu.last_update_id
        await h.restart_bot()
        shown = len(user.private.bot_messages)
        h.emu.redeliver(start_update)
        # Either outcome is visible: the repeat is dropped (logged) or it acts (a new message).
        while not (
            any("delivered again" in r.getMessage() for r in caplog.records)
            or len(user.private.bot_messages) > shown
        ):
            await asyncio.sleep(0.02)
        assert len(user.private.bot_messages) == shown
        assert h.rows("SELECT id, status FROM attempts") == [(1, "active")]  # no second attempt
        # A new /start of the same quiz (a new update) still acts.
        await start_quiz(user, QUIZ)
        assert h.count("SELECT count(*) FROM attempts") == 2
