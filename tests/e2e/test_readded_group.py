"""A bot removed from a group and added back: its schedules were stopped at the removal (no quiz
may be posted in a chat the bot is not in), and the welcome says so, listing each with the
command that sets it again, once. A restart in between changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.emulator.driver import ChatView, Mark, SimUser
from tests.e2e.groups_kit import GroupHarness, group_bot, make_group, schedule_jobs


async def schedule(group: ChatView, admin: SimUser, args: str) -> None:
    mark = group.mark()
    await admin.send(f"/schedule {args}", chat=group)
    assert "✅" in (await group.next_message(after=mark)).text


async def removed(h: GroupHarness, group: ChatView, admin: SimUser) -> None:
    """The bot removed, and its schedules' jobs gone with it."""
    await h.emu.remove_bot_from_group(group, by=admin)
    assert h.bot is not None
    for _ in range(50):
        if not schedule_jobs(h.bot):
            break
        await asyncio.sleep(0.05)
    assert schedule_jobs(h.bot) == []


async def removed_then_added(h: GroupHarness, group: ChatView, admin: SimUser) -> Mark:
    """Remove the bot and add it back: a mark from before its welcome (the how-to)."""
    await removed(h, group, admin)
    mark = group.mark()
    await h.emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text, after=mark)
    return mark


async def test_the_welcome_back_lists_the_stopped_schedules_with_their_commands_once(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        await schedule(group, admin, "next weekdays 08:30")
        await schedule(group, admin, "random mon,wed 18:15")
        await removed(h, group, admin)
        await h.restart_bot()  # nothing runs for a group the bot left, restarted or not
        assert h.bot is not None and schedule_jobs(h.bot) == []
        mark = group.mark()
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text, after=mark)
        told = await group.wait_for(lambda m: "/schedule next" in m.text, after=mark)
        assert "I stopped its 2 schedules" in told.text, told.text
        assert "1. the next quiz in order: Monday to Friday at 8:30\u202fAM" in told.text
        assert "/schedule next weekdays 08:30" in told.text
        assert "/schedule random mon,wed 18:15" in told.text
        assert "To set them again" in told.text
        assert schedule_jobs(h.bot) == []  # told, not restarted behind the admins' backs
        mark = group.mark()
        await admin.send("/schedules", chat=group)
        assert "No quizzes are scheduled" in (await group.next_message(after=mark)).text

        # The command as shown sets the same schedule again.
        await schedule(group, admin, "next weekdays 08:30")
        assert h.schedules() == [("next", "0,1,2,3,4", "08:30")]

        # One schedule this time: said in the singular; the two told before are not told again.
        mark = await removed_then_added(h, group, admin)
        told = await group.wait_for(lambda m: "/schedule next" in m.text, after=mark)
        assert "I stopped its schedule:" in told.text, told.text
        assert "To set it again" in told.text
        assert "random" not in told.text

        # Nothing stopped: the welcome alone.
        mark = await removed_then_added(h, group, admin)
        await asyncio.sleep(0.3)
        posted = [m.text for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert len(posted) == 1 and "/push" in posted[0], posted


async def test_a_french_group_is_told_in_french_with_french_keywords(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h, chat_id=-100600)
        mark = group.mark()
        await admin.send("/settings", chat=group)
        await admin.tap(await group.next_message(after=mark), "Français")
        assert h.group_languages() == [("fr",)]
        await schedule(group, admin, "suivant quotidien 07:00")
        mark = await removed_then_added(h, group, admin)
        told = await group.wait_for(lambda m: "/schedule suivant" in m.text, after=mark)
        assert "/schedule suivant quotidien 07:00" in told.text, told.text
        assert "schedule:" not in told.text and "stopped" not in told.text
        await schedule(group, admin, "suivant quotidien 07:00")
        assert h.schedules() == [("next", "0,1,2,3,4,5,6", "07:00")]
