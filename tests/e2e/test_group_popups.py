"""No give-away in groups (issue 14): by default a member's popup only confirms the letter they
chose; whether it was right, and why, comes with the reveal for everyone at once. Admins can
switch /settings back to verdicts in the popup; members cannot."""

from __future__ import annotations

from pathlib import Path

from bot.core.markup import plain
from bot.i18n import translator
from tests.e2e.groups_kit import LETTERS, QUIZ, group_bot, make_group, right_position


async def test_popup_confirms_the_letter_and_the_reveal_tells_everyone(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.5, questions=1, clock_timers=True) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        cheikh = h.emu.user(2001, "Cheikh", language_code="en")
        awa = h.emu.user(2002, "Awa", language_code="fr")
        for member in (cheikh, awa):
            group.add_member(member)
        assert h.popup_verdicts() == [(0,)]  # the default: no give-away

        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/1" in m.text)
        right = right_position(q1, quiz, 0)
        wrong = (right + 1) % len(q1.buttons[0])
        explanation = plain(quiz.questions[0].explanation.get("en"))

        said = await cheikh.tap(q1, LETTERS[right])
        assert said is not None and said.text is not None
        # A toast (issue 28): an alert is a modal every member must dismiss mid-question.
        assert not said.show_alert
        assert said.text == translator("en")._(
            "🗳 Your answer {letter} is recorded. Whether it is right comes with the reveal.",
            letter=LETTERS[right],
        )
        assert not said.text.startswith(("✅", "❌")) and explanation[:30] not in said.text
        said_fr = await awa.tap(q1, LETTERS[wrong])
        assert said_fr is not None and said_fr.text is not None and not said_fr.show_alert
        assert f" {LETTERS[wrong]} " in said_fr.text and "❌" not in said_fr.text
        assert said_fr.text == translator("fr")._(
            "🗳 Your answer {letter} is recorded. Whether it is right comes with the reveal.",
            letter=LETTERS[wrong],
        )
        assert h.rows("SELECT user_id, is_correct FROM answers ORDER BY user_id") == [
            (2001, 1),
            (2002, 0),
        ]

        await h.next_timer()  # the question's time is up
        revealed = await group.wait_for(
            lambda m: m.message_id == q1.message_id and m.edited, timeout=5
        )
        assert f"✅ {LETTERS[right]}." in revealed.text  # the verdict, for everyone at once
        assert explanation[:30] in revealed.text
        await group.wait_for(lambda m: "finished" in m.text, timeout=5)


async def test_only_admins_switch_verdicts_back_into_the_popup(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.5, questions=1, clock_timers=True) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        awa = h.emu.user(2002, "Awa", language_code="en")
        group.add_member(awa)

        mark = group.mark()
        await admin.send("/settings", chat=group)
        settings = await group.wait_for(lambda m: "Answer popups" in m.text, after=mark)
        assert "the letter only" in settings.text
        refused = await awa.tap(settings, "Popup: verdict")
        assert refused is not None and "only the group's admins" in (refused.text or "")
        assert h.popup_verdicts() == [(0,)]
        forged = await admin.tap(settings, callback_data=f"set:{group.id}:popup:maybe")
        assert forged is not None and h.popup_verdicts() == [(0,)]
        saved = await admin.tap(settings, "Popup: verdict")
        assert saved is not None and saved.text == "Saved."
        await group.wait_for(
            lambda m: m.message_id == settings.message_id and "right or wrong at once" in m.text
        )
        assert h.popup_verdicts() == [(1,)]

        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/1" in m.text)
        right = right_position(q1, quiz, 0)
        said = await awa.tap(q1, LETTERS[right])
        assert said is not None and (said.text or "").startswith("✅")
        # The verdict carries up to 200 characters of explanation: an alert, so it can be read.
        assert said.show_alert
        await h.next_timer()
        await group.wait_for(lambda m: "finished" in m.text, timeout=5)
