"""An uploaded quiz's title and file name are the uploader's text, as a person's name is: one
ending in an unclosed RIGHT-TO-LEFT OVERRIDE (U+202E) reversed the rest of every line that named
it (the upload summary, the group's /quizzes and /quiz lists, /schedules, the push card, the
results). Such text is isolated (FSI ... PDI, bot/core/bidi.py), and so are the arguments of
/timezone and /remind when a reply repeats them."""

from __future__ import annotations

from pathlib import Path

from bot.core.bidi import FSI, PDI
from tests.e2e.groups_kit import group_bot, make_group
from tests.reliability.support import bot_at

RLO = "\u202e"
GIFT = f"""\
$CATEGORY: Drills{RLO}

::sum:: How much is 2 + 2? {{
  =Four
  ~Five
}}
"""


def isolated(text: str, inside: str) -> bool:
    return RLO not in text and f"{FSI}{inside}{PDI}" in text


async def test_an_uploaded_title_and_file_name_cannot_reorder_a_line(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.0) as h:
        group, admin = await make_group(h)
        member = h.emu.user(2001, "Awa", language_code="en")
        group.add_member(member)
        await admin.send_document(f"ours{RLO}.gift", GIFT.encode(), caption="/upload", chat=group)
        summary = await group.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
        assert isolated(summary.text, "ours.gift"), summary.text
        assert isolated(summary.text, "Drills") and "Quiz id: drills" in summary.text

        screens = []
        for command in ("/quizzes", "/quiz", "/schedule drills daily 08:30", "/schedules"):
            mark = group.mark()
            await admin.send(command, chat=group)
            screens.append((command, await group.next_message(after=mark)))
        mark = group.mark()
        await admin.send("/push drills", chat=group)
        screens.append(("push", await group.wait_for(lambda m: "Question 1/1" in m.text)))
        screens.append(
            ("results", await group.wait_for(lambda m: "Quiz finished" in m.text, after=mark))
        )
        for command, shown in screens:
            assert isolated(shown.text, "Drills"), (command, shown.text)


async def test_the_arguments_of_timezone_and_remind_are_isolated_when_repeated(
    tmp_path: Path,
) -> None:
    async with bot_at(tmp_path) as h:
        user = h.emu.user(7401, "Awa", language_code="en")
        for command, typed in (("/timezone", "Mars"), ("/remind", "Mars"), ("/remind", "at 7")):
            mark = user.private.mark()
            await user.send(f"{command} {typed}{RLO}")
            said = await user.private.next_message(after=mark)
            assert isolated(said.text, typed), (command, said.text)
