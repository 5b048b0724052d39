"""A member named with a right-to-left override never closed (U+202E) reversed the rest of
their leaderboard line: every screen that shows a person's name or a group's title isolates it
(FSI ... PDI) and drops the controls it leaves open."""

from __future__ import annotations

from pathlib import Path

from bot.core.bidi import FSI, PDI
from tests.e2e.groups_kit import group_bot
from tests.e2e.standings_kit import play

RLO = "\u202e"


def isolated(text: str, name: str) -> bool:
    return RLO not in text and f"{FSI}{name}{PDI}" in text


async def test_names_and_titles_are_isolated_on_every_screen(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.5) as h:
        admin = h.emu.user(1001, "Ada", language_code="en")
        group = h.emu.group(-100777, "Club" + RLO)
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        eve = h.emu.user(2101, "Eve" + RLO, language_code="en")
        sam = h.emu.user(2102, "Sam", language_code="en")
        for member in (eve, sam):
            group.add_member(member)
        await eve.send("/start")  # Eve can be written to privately: /stats shows her groups
        await eve.private.wait_for(lambda m: bool(m.buttons))

        results = await play(h, group, admin, [(eve, [True, True]), (sam, [True, False])])
        line = next(line for line in results.text.splitlines() if "Eve" in line)
        assert isolated(line, "Eve") and line.endswith(" s"), line  # the time stays after it
        assert isolated(results.text, "Sam")

        mark = group.mark()
        await sam.send("/top", chat=group)
        top = await group.wait_for(lambda m: "Standings" in m.text, after=mark)
        assert isolated(top.text, "Eve") and isolated(top.text, "Sam"), top.text

        mark = group.mark()
        await sam.send("/me", chat=group)
        mine = await group.wait_for(lambda m: "in this group" in m.text, after=mark)
        assert isolated(mine.text, "Sam")

        mark = eve.private.mark()
        await eve.send("/stats")
        section = await eve.private.wait_for(lambda m: "Your groups" in m.text, after=mark)
        assert isolated(section.text, "Club"), section.text
