"""Hostile arguments to group commands: what an admin may type is any Unicode, any length; each
gets a clear reply, never "something went wrong" (a traceback in the log)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.groups_kit import group_bot, make_group

WENT_WRONG = "something went wrong"


async def test_unschedule_with_a_digit_python_cannot_read_is_a_usage_not_an_error(
    tmp_path: Path,
) -> None:
    """'²' and '①' are digits to str.isdigit, but int() refuses them."""
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send("/schedule random daily 07:00", chat=group)
        await group.next_message(after=mark)
        for typed in ("²", "①", "1²"):
            mark = group.mark()
            await admin.send(f"/unschedule {typed}", chat=group)
            reply = await group.next_message(after=mark)
            assert WENT_WRONG not in reply.text, (typed, reply.text)
            assert "/unschedule" in reply.text or "/schedules" in reply.text, reply.text
        assert h.schedule_count() == [(1,)]


async def test_unschedule_with_a_huge_number_says_there_is_no_such_schedule(
    tmp_path: Path,
) -> None:
    """The number is echoed back: thousands of digits must still make a message Telegram
    takes."""
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send("/unschedule " + "9" * 4000, chat=group)
        reply = await group.next_message(after=mark)
        assert WENT_WRONG not in reply.text, reply.text
        assert "/schedules" in reply.text, reply.text


LONG = "x" * 4080  # with "/timezone " and the rest, as long as a Telegram message can be


@pytest.mark.parametrize(
    "command",
    [
        f"/timezone {LONG}",
        f"/deletequiz {LONG}",
        f"/schedule {LONG} daily 07:00",
        f"/schedule next {LONG} 07:00",
        f"/schedule next daily {LONG}",
    ],
    ids=["timezone", "deletequiz", "schedule-quiz", "schedule-days", "schedule-time"],
)
async def test_a_long_argument_quoted_back_in_a_group_still_fits_a_message(
    tmp_path: Path, command: str
) -> None:
    """A reply that quotes what was typed ("I can't read the days …") quotes a bounded part."""
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send(command, chat=group)
        reply = await group.next_message(after=mark)
        assert WENT_WRONG not in reply.text, reply.text
        assert "xxxx" in reply.text and "…" in reply.text, reply.text


@pytest.mark.parametrize("command", [f"/timezone {LONG}", f"/remind {LONG}", f"/remind on {LONG}"])
async def test_a_long_argument_quoted_back_privately_still_fits_a_message(
    tmp_path: Path, command: str
) -> None:
    async with group_bot(tmp_path) as h:
        learner = h.emu.user(3001, "Zed", language_code="en")
        mark = learner.private.mark()
        await learner.send(command)
        reply = await learner.private.next_message(after=mark)
        assert WENT_WRONG not in reply.text, reply.text
        assert "xxxx" in reply.text and "…" in reply.text, reply.text
