"""A study group set to Français or Wolof meets no English UI string on any group screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.groups_kit import group_bot
from tests.e2e.i18n_kit import TRANSLATED, Seen, english_patterns

QUIZ = "gradient-checkpointing"


@pytest.mark.parametrize("lang", TRANSLATED)
async def test_no_english_on_any_group_screen(tmp_path: Path, lang: str) -> None:
    async with group_bot(tmp_path, seconds=1.0) as h:
        admin = h.emu.user(5001, "Ada", language_code=lang)
        member = h.emu.user(5002, "Ibou <i>", language_code=lang)
        group = h.emu.group(-100777, "Groupe")
        group.add_member(admin, "creator")
        group.add_member(member, "member")
        seen = Seen()
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)  # the how-to, in the group's language

        async def say(user: object, text: str) -> None:
            mark = group.mark()
            await user.send(text, chat=group)  # type: ignore[attr-defined]
            await group.next_message(after=mark)

        await say(member, f"/push {QUIZ}")  # refused: not an admin
        await say(admin, "/stop")  # nothing running
        await say(admin, "/schedule")  # usage
        await say(admin, "/schedule nonsense someday 25:99")
        await say(admin, "/schedules")  # none yet
        await say(admin, f"/schedule {QUIZ} mon,wed 18:30")
        await say(admin, "/schedules")
        await say(admin, "/unschedule 7")
        await say(admin, "/unschedule 1")
        await say(admin, "/timezone Mars/Olympus")
        await say(admin, "/timezone Africa/Dakar")
        await say(admin, "/settings")
        settings = group.last
        assert settings is not None and settings.buttons
        forged = await member.tap(settings, callback_data=settings.buttons[0][0].callback_data)
        seen.popup(forged.text if forged else None)
        await say(admin, "/quiz")  # the picker
        picker = group.last
        assert picker is not None and picker.buttons

        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        await group.next_message(after=mark)  # intro
        for index in range(2):
            question = await group.wait_for(lambda m, i=index: f"{i + 1}/2" in m.text)
            answer = await member.tap(question, "A")
            seen.popup(answer.text if answer else None)
            again = await member.tap(question, "B")
            seen.popup(again.text if again else None)
        await group.wait_for(lambda m: m.text.startswith("🏁"), timeout=8)  # the leaderboard
        await say(admin, "/help")
        for message in group.bot_messages:
            seen.message(message)

    assert len(seen.texts) > 25
    patterns = english_patterns(lang)
    leaks = {
        english: text
        for text in seen.texts
        for english, pattern in patterns.items()
        if pattern.search(text)
    }
    assert leaks == {}
