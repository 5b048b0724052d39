"""Which groups a private /upload offers (issue 25, items 6 and 7): Telegram is asked only about
groups where the sender has been seen (they added the bot, or the bot confirmed them as an admin
there, or they played or joined there), at most a few; a group Telegram no longer knows is
skipped and marked gone (its data kept), and a passing error skips a group without forgetting it.
"""

from __future__ import annotations

from pathlib import Path

from bot.emulator.driver import SimUser
from bot.tg.upload_render import MAX_GROUP_BUTTONS
from tests.e2e.groups_kit import GroupHarness, group_bot, make_group
from tests.e2e.uploads_kit import GIFT


def member_calls(h: GroupHarness, chat_id: int | None = None) -> int:
    calls = h.emu.calls("getChatMember")
    return sum(1 for c in calls if chat_id is None or int(c["chat_id"]) == chat_id)


async def private_upload(user: SimUser) -> str:
    mark = user.private.mark()
    await user.send_document("ours.gift", GIFT.encode(), caption="/upload")
    return (await user.private.next_message(after=mark, timeout=30)).text


async def started(user: SimUser) -> SimUser:
    await user.send("/start")
    await user.private.wait_for(lambda m: bool(m.buttons))
    return user


async def test_a_stranger_costs_no_member_lookup_and_an_admin_a_bounded_few(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        groups = MAX_GROUP_BUTTONS + 3
        for n in range(groups):  # one admin added the bot to every group: seen in each
            _, admin = await make_group(h, chat_id=-100500 - n, admin_id=1001)
        stranger = await started(h.emu.user(4242, "Nobody", language_code="en"))
        before = member_calls(h)
        assert "I know of no group of mine that you administer" in await private_upload(stranger)
        assert member_calls(h) == before  # was one getChatMember per group

        await started(admin)
        before = member_calls(h)
        mark = admin.private.mark()
        await admin.send_document("ours.gift", GIFT.encode(), caption="/upload")
        ask = await admin.private.next_message(after=mark, timeout=30)
        assert "Which group" in ask.text
        assert len([b for row in ask.buttons for b in row]) == MAX_GROUP_BUTTONS
        assert member_calls(h) - before <= MAX_GROUP_BUTTONS


async def test_an_admin_confirmed_in_a_group_is_offered_it(tmp_path: Path) -> None:
    """Not the one who added the bot: seen as an admin when they used an admin command."""
    async with group_bot(tmp_path) as h:
        group, _ = await make_group(h)
        co_admin = await started(h.emu.user(1002, "Binta", language_code="en"))
        group.add_member(co_admin, "administrator")
        assert "I know of no group of mine that you administer" in await private_upload(co_admin)
        mark = group.mark()
        await co_admin.send("/quiz", chat=group)
        await group.next_message(after=mark)
        assert "Which group" in await private_upload(co_admin)


async def test_a_group_telegram_no_longer_knows_is_skipped_and_marked_gone(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        gone, _ = await make_group(h, chat_id=-100600, admin_id=1001)
        await started(admin)
        h.emu.faults.add("getChatMember", "400_chat_not_found", times=None, chat_id=gone.id)
        text = await private_upload(admin)
        assert "Which group" in text and "went wrong" not in text
        ask = admin.private.last
        assert ask is not None and [b.text for row in ask.buttons for b in row] == [group.title]
        assert h.bot_in_group(gone.id) == [(0,)]
        # marked gone, not destroyed: its settings stay, and it is not asked about again
        before = member_calls(h, gone.id)
        await private_upload(admin)
        assert member_calls(h, gone.id) == before
        # back in touch (any update from the group): listed again
        h.emu.faults.clear()
        mark = gone.mark()
        await admin.send("/quiz", chat=gone)
        await gone.next_message(after=mark)
        assert h.bot_in_group(gone.id) == [(1,)]


async def test_a_passing_error_skips_a_group_without_forgetting_it(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        flaky, _ = await make_group(h, chat_id=-100600, admin_id=1001)
        await started(admin)
        h.emu.faults.add("getChatMember", "502", times=None, chat_id=flaky.id)
        text = await private_upload(admin)
        assert "Which group" in text and "went wrong" not in text
        ask = admin.private.last
        assert ask is not None and [b.text for row in ask.buttons for b in row] == [group.title]
        assert h.bot_in_group(flaky.id) == [(1,)]
