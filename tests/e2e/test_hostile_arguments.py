"""Hostile arguments to group commands: what an admin may type is any Unicode, any length; each
gets a clear reply, never "something went wrong" (a traceback in the log)."""

from __future__ import annotations

from pathlib import Path

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
