"""Only a group's real admins (creator, administrator, or an admin posting anonymously as the
group) run admin commands or press settings buttons; members, restricted members, people who
left, bots, and forged settings data change nothing."""

from __future__ import annotations

from pathlib import Path

from bot.emulator import ChatView, SimUser
from bot.emulator.state import UserState
from tests.reliability.support import ReliableHarness, bot_at, no_leak

ADMIN_COMMANDS = [
    "/push gradient-accumulation", "/quiz gradient-accumulation", "/stop", "/settings",
    "/timezone Africa/Dakar", "/schedule next daily 08:00", "/schedules", "/unschedule 1",
]  # fmt: skip
TITLE = "Étude <b>&</b> 🦊 مجموعة"


def state(h: ReliableHarness) -> tuple[object, ...]:
    return tuple(h.rows(f"SELECT * FROM {t} ORDER BY 1")
                 for t in ("groups", "schedules", "attempts", "group_runs"))  # fmt: skip


def a_bot(h: ReliableHarness, user_id: int) -> SimUser:
    """Another bot in the group (the driver's users are people)."""
    found = UserState(user_id, "HelperBot", username="helper_bot", is_bot=True)
    h.emu.world.add_user(found)
    return SimUser(h.emu.world, found)


async def refused(group: ChatView, user: SimUser, command: str) -> str:
    mark = group.mark()
    await user.send(command, chat=group)
    reply = await group.next_message(after=mark)
    return reply.text


async def test_admin_commands_and_settings_are_for_real_admins_only(tmp_path: Path) -> None:
    async with bot_at(tmp_path) as h:
        admin = h.emu.user(9101, "Creator")
        group = h.emu.group(-9100, TITLE)
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin, status="administrator")
        await group.wait_for(lambda m: "/push" in m.text)
        second_admin = h.emu.user(9102, "Admin")
        member, restricted, gone = (h.emu.user(9103, "Member"), h.emu.user(9104, "Muted"),
                                    h.emu.user(9105, "Gone"))  # fmt: skip
        helper = a_bot(h, 9106)
        group.add_member(second_admin, "administrator")
        group.add_member(member, "member")
        group.add_member(restricted, "restricted")
        group.add_member(gone, "left")
        group.add_member(helper, "member")

        before = state(h)
        for user in (member, restricted):
            for command in ADMIN_COMMANDS:
                h.clock.advance(61)  # a member's refusals are capped a minute (core/courtesy.py)
                text = await refused(group, user, command)
                assert "only the group's admins" in text, (user, command, text)
        mark = group.mark()
        for command in ADMIN_COMMANDS:  # another bot: refused without a word (nobody to tell)
            await helper.send(command, chat=group)
        await admin.send("/schedules", chat=group)  # handled after the bot's, in order
        assert "only the group's admins" not in (await group.next_message(after=mark)).text
        assert state(h) == before

        # Real admins: the creator, another administrator, and an admin posting as the group.
        mark = group.mark()
        await group.send_as_anonymous_admin("/settings")
        panel = await group.next_message(after=mark)
        assert panel.buttons, panel.text
        for user in (admin, second_admin):
            mark = group.mark()
            await user.send("/schedules", chat=group)
            assert "only the group's admins" not in (await group.next_message(after=mark)).text

        forged = [b.callback_data for row in panel.buttons for b in row if b.callback_data]
        forged += [
            f"set:{group.id}:lang:fr",
            f"set:{group.id}:push:gradient-accumulation",
            f"set:{group.id}:seconds:10",
            "set:-1:lang:fr",
            f"set:{group.id}:lang",
        ]
        before = state(h)
        for user in (member, restricted, gone, helper):
            for data in forged:
                reply = await user.tap(panel, callback_data=data)
                assert reply is not None and reply.text, (user, data)
                assert "admins" in reply.text or "expired" in reply.text, (user, data, reply)
        assert state(h) == before
        # The same set: forged in a private chat records no group.
        await member.send("/help")
        own = await member.private.wait_for(lambda m: "/quizzes" in m.text)
        reply = await member.tap(own, callback_data=f"set:{member.id}:lang:fr")
        assert reply is not None and "expired" in (reply.text or "")
        assert state(h) == before

        reply = await second_admin.tap(panel, callback_data=f"set:{group.id}:seconds:10")
        assert reply is not None and reply.text
        assert h.rows("SELECT seconds_per_question FROM groups WHERE chat_id = ?", group.id) == [
            (10,)
        ]
        assert all(no_leak(m.text) for m in group.messages)
