"""Lists the bot sends stay within Telegram's 4096 characters: /schedules with 60 schedules
failed with "message is too long" (no answer at all). A group holds at most 20 schedules, the
21st is refused saying so, and a longer list (a group that had more before the cap) is cut
with "…and N more"."""

from __future__ import annotations

from pathlib import Path

from bot.core.limits import MESSAGE_MAX_CHARS
from bot.usecases.group_schedules import MAX_SCHEDULES
from tests.e2e.groups_kit import group_bot, make_group


async def test_schedules_are_capped_and_a_long_list_still_fits(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        assert h.bot is not None
        group, admin = await make_group(h)
        for n in range(MAX_SCHEDULES):
            mark = group.mark()
            await admin.send(f"/schedule next daily 08:{n:02}", chat=group)
            assert "Scheduled" in (await group.next_message(after=mark)).text
        mark = group.mark()
        await admin.send("/schedule next daily 09:00", chat=group)
        refused = await group.next_message(after=mark)
        assert f"already has {MAX_SCHEDULES} schedules" in refused.text, refused.text
        assert "/unschedule" in refused.text
        assert h.schedule_count() == [(MAX_SCHEDULES,)]

        # A group that had 60 before the cap: its list is cut, and says how many are left out.
        store = h.bot.group_schedules.store
        for n in range(60 - MAX_SCHEDULES):
            await store.add_schedule(group.id, "next", "0,2,4", f"1{n // 60}:{n % 60:02}", None, 0)
        mark = group.mark()
        await admin.send("/schedules", chat=group)
        listed = await group.next_message(after=mark)
        assert len(listed.text) <= MESSAGE_MAX_CHARS
        shown = sum(1 for line in listed.text.splitlines() if "next run" in line)
        assert 20 <= shown < 60
        assert f"…and {60 - shown} more schedules" in listed.text, listed.text
        assert listed.text.rstrip().endswith("/unschedule <n> removes one.")

        mark = group.mark()
        await admin.send("/unschedule 1", chat=group)
        removed = await group.next_message(after=mark)
        assert "Removed" in removed.text and "more schedules" in removed.text
        assert len(removed.text) <= MESSAGE_MAX_CHARS
