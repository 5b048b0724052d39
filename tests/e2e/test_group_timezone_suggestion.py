"""A group's /timezone with a near miss offers the real zone as a button, as it does privately
(issue 28, item 11: the group's "Did you mean Europe/Paris?" had no button, so a sandbox user's
typed number hit the settings keyboard instead)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.groups_kit import group_bot


async def test_the_suggested_zone_is_a_button_only_an_admin_can_use(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        admin = h.emu.user(7501, "Ada", language_code="en")
        member = h.emu.user(7502, "Ibou", language_code="fr")
        group = h.emu.group(-100_750, "Groupe")
        group.add_member(admin, "creator")
        group.add_member(member, "member")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        mark = group.mark()
        await admin.send("/timezone europe/paris", chat=group)
        offer = await group.next_message(after=mark)
        assert "Did you mean Europe/Paris?" in offer.text
        assert [b.text for row in offer.buttons for b in row] == ["Europe/Paris"]

        refused = await member.tap(offer, "Europe/Paris")
        assert refused is not None and "administrateurs" in refused.text
        assert h.group_timezones() != [("Europe/Paris",)]

        saved = await admin.tap(offer, "Europe/Paris")
        assert saved is not None and saved.text == "Saved."
        await group.wait_for(lambda m: m.text == "Time zone set to Europe/Paris.")
        assert h.group_timezones() == [("Europe/Paris",)]


async def test_an_offset_is_suggested_with_its_offset_in_the_group_too(tmp_path: Path) -> None:
    """'UTC+1' is Etc/GMT-1, whose name reads the other way round: the group's button and text
    say the offset, as the private ones do."""
    async with group_bot(tmp_path) as h:
        admin = h.emu.user(7501, "Ada", language_code="en")
        group = h.emu.group(-100_751, "Group")
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        mark = group.mark()
        await admin.send("/timezone UTC+1", chat=group)
        offer = await group.next_message(after=mark)
        assert "Did you mean Etc/GMT-1 (UTC+01:00)?" in offer.text
        assert [b.text for row in offer.buttons for b in row] == ["Etc/GMT-1 (UTC+01:00)"]
        await admin.tap(offer, "Etc/GMT-1 (UTC+01:00)")
        await group.wait_for(lambda m: "Time zone set to Etc/GMT-1" in m.text)
        assert h.group_timezones() == [("Etc/GMT-1",)]
