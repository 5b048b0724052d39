"""The standings' window buttons (any member may tap them) switch a standings table in place,
and nothing else: the data is the member's to forge, and the message it is tapped on too."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.groups_kit import group_bot, make_group


async def test_a_forged_window_tap_on_the_live_question_leaves_the_question_alone(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        group, admin = await make_group(h)
        member = h.emu.user(2001, "Bintou")
        group.add_member(member)
        await admin.send("/push gradient-checkpointing", chat=group)
        question = await group.wait_for(lambda m: "Question 1/2" in m.text and bool(m.buttons))

        refused = await member.tap(question, callback_data=f"top:{group.id}:m")
        assert refused is not None and "expired" in (refused.text or "")
        now = group.message(question.message_id)
        assert (now.text, now.buttons) == (question.text, question.buttons)

        # A real table still switches in place, in the group's other languages too (after the
        # run: a member's /top while one plays is answered privately).
        await admin.send("/stop", chat=group)
        await group.wait_for(lambda m: "stopped" in m.text)
        await admin.send("/settings", chat=group)
        panel = await group.wait_for(lambda m: "Group settings" in m.text)
        await admin.tap(panel, "Français")
        mark = group.mark()
        await member.send("/top", chat=group)
        table = await group.wait_for(lambda m: "Classement" in m.text, after=mark)
        await admin.tap(panel, "English")
        await group.wait_for(lambda m: m.message_id == panel.message_id and "English" in m.text)
        switched = await member.tap(table, callback_data=f"top:{group.id}:a")
        assert switched is not None and not switched.text
        await group.wait_for(lambda m: m.message_id == table.message_id and "All time" in m.text)


async def test_a_refused_window_tap_is_answered_in_the_tappers_language(tmp_path: Path) -> None:
    """A popup is the tapper's alone: in their language, as every other popup, not the group's."""
    async with group_bot(tmp_path, seconds=30) as h:
        group, admin = await make_group(h)
        member = h.emu.user(2002, "Awa", language_code="fr")
        group.add_member(member)
        await admin.send("/push gradient-checkpointing", chat=group)
        question = await group.wait_for(lambda m: "Question 1/2" in m.text and bool(m.buttons))
        refused = await member.tap(question, callback_data=f"top:{group.id}:m")
        assert refused is not None and "expiré" in (refused.text or ""), refused
