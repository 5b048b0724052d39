"""A group's admins change while the bot remembers who they are (a minute, to spare Telegram a
getChatMember per command: bot/usecases/group_admins.py). Where the bot is an administrator,
Telegram tells it at once (chat_member): a member just promoted is an admin at once, and an
admin just demoted is one no longer."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.groups_kit import QUIZ, group_bot, make_group


async def test_a_promotion_or_a_demotion_the_bot_is_told_of_counts_at_once(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=1, clock_timers=True) as h:
        group, admin = await make_group(h)
        await h.emu.set_bot_status(group, "administrator", by=admin)
        teacher = h.emu.user(2001, "Teacher")
        group.add_member(teacher)
        mark = group.mark()
        await teacher.send("/settings", chat=group)
        assert "only the group's admins" in (await group.next_message(after=mark)).text

        chat = h.emu.world.chats[group.id]
        h.emu.world.set_member_status(chat, teacher.state, "administrator")  # chat_member
        await asyncio.sleep(0.2)  # the update handled (no reply to wait for)
        mark = group.mark()
        await teacher.send(f"/push {QUIZ}", chat=group)
        intro = await group.next_message(after=mark)
        assert "Group quiz" in intro.text, intro.text
        mark = group.mark()
        await teacher.send("/settings", chat=group)
        panel = await group.wait_for(lambda m: "Français" in str(m.buttons), after=mark)

        h.emu.world.set_member_status(chat, teacher.state, "member")  # demoted
        await asyncio.sleep(0.2)
        refused = await teacher.tap(panel, "Français")
        assert refused is not None and "admins" in (refused.text or ""), refused
        assert h.group_languages() == [("en",)]
