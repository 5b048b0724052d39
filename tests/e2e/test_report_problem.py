"""Report a problem (issue 14): the answered question's "⚠️ Report" shows the reasons in its own
keyboard, a reason is stored at once and acknowledged, an optional sentence follows (or Skip);
one report per learner, question and reason; a forged or foreign button stores nothing; the
Wolof intro says its translation is not reviewed yet."""

from __future__ import annotations

from pathlib import Path

from bot.emulator import EmuMessage, SimUser
from tests.e2e.groups_kit import group_bot, make_group
from tests.e2e.harness import answered
from tests.e2e.images_kit import catalog as picture_catalog
from tests.e2e.reports_kit import REASONS, open_reasons
from tests.reliability.support import bot_at, buttons, start_quiz

QUIZ = "gradient-accumulation"


async def answer_first(user: SimUser) -> EmuMessage:
    question = await start_quiz(user, QUIZ)
    mark = user.private.mark()
    await user.tap(question, "A")
    return await answered(user.private, question, mark)


async def test_report_with_a_sentence_then_a_duplicate(tmp_path: Path) -> None:
    async with bot_at(tmp_path) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        user = h.emu.user(7301, "Awa", language_code="en")
        shown = await answer_first(user)
        assert buttons(shown) == ["Next ▶️", "⚠️ Report"]

        # The reasons replace the buttons of the same message: no new message.
        mark = user.private.mark()
        with_reasons = await open_reasons(user, shown)
        assert user.private.mark().next_message_id == mark.next_message_id
        assert buttons(with_reasons) == REASONS
        assert with_reasons.text == shown.text
        # Back restores the answered buttons; nothing is stored.
        mark = user.private.mark()
        await user.tap(with_reasons, "⬅️ Back")
        back = await user.private.wait_for(
            lambda m: m.message_id == shown.message_id and "⚠️ Report" in buttons(m), after=mark
        )
        assert buttons(back) == ["Next ▶️", "⚠️ Report"] and h.problem_reports() == []

        reasons = await open_reasons(user, back)
        mark = user.private.mark()
        popup = await user.tap(reasons, "The answer key looks wrong")
        assert popup is not None and not popup.text
        invite = await user.private.next_message(after=mark)
        assert "Reported: The answer key looks wrong." in invite.text
        assert "within 5 minutes" in invite.text and buttons(invite) == ["Skip"]
        restored = await user.private.wait_for(
            lambda m: m.message_id == shown.message_id and "⚠️ Report" in buttons(m), after=mark
        )
        assert buttons(restored) == ["Next ▶️", "⚠️ Report"]
        ((_, _, _, _, version, _, text),) = h.problem_reports()
        assert version == quiz.version and text is None

        mark = user.private.mark()
        await user.send("Option C\x07 is right too, <b>surely</b>\u202e!\n" + "x" * 600)
        thanks = await user.private.next_message(after=mark)
        assert thanks.text == "🙏 Thanks — the authors will look at it."
        ((user_id, quiz_id, question_id, lang, _, reason, text),) = h.problem_reports()
        assert (user_id, quiz_id, question_id, lang, reason) == (
            7301, QUIZ, quiz.questions[0].id, "en", "key"
        )  # fmt: skip
        assert text.startswith("Option C is right too, <b>surely</b>! x")  # stored raw, cleaned
        assert len(text) == 500

        # The next text is an ordinary message again: the usual hint, nothing stored.
        mark = user.private.mark()
        await user.send("hello")
        hint = await user.private.next_message(after=mark)
        assert "I only understand" in hint.text
        assert [r[6] for r in h.problem_reports()] == [text]

        # The same reason again: "already reported", nothing stored.
        reasons = await open_reasons(user, shown)
        mark = user.private.mark()
        popup = await user.tap(reasons, REASONS[0])
        assert popup is not None and popup.text == (
            "You already reported this question for this reason."
        )
        assert len(h.problem_reports()) == 1
        assert user.private.mark().next_message_id == mark.next_message_id  # no message
        # Another reason for the same question is a report of its own; Skip closes it.
        reasons = await open_reasons(user, shown)
        mark = user.private.mark()
        await user.tap(reasons, "The question is unclear")
        invite = await user.private.next_message(after=mark)
        popup = await user.tap(invite, "Skip")
        assert popup is not None and not popup.text
        done = await user.private.wait_for(
            lambda m: m.message_id == invite.message_id and not m.buttons
        )
        assert done.text == "🙏 Thanks — the authors will look at it."
        assert [(r[5], r[6]) for r in h.problem_reports()] == [("key", text), ("unclear", None)]
        # After Skip the next text is no sentence.
        mark = user.private.mark()
        await user.send("hello again")
        assert "I only understand" in (await user.private.next_message(after=mark)).text


async def test_forged_and_foreign_report_buttons_store_nothing(tmp_path: Path) -> None:
    async with bot_at(tmp_path) as h:
        owner = h.emu.user(7311, "Awa", language_code="en")
        intruder = h.emu.user(7312, "Bob", language_code="en")
        shown = await answer_first(owner)
        ((attempt_id,),) = h.rows("SELECT id FROM attempts WHERE user_id = 7311")
        await intruder.send("/help")
        own = await intruder.private.wait_for(lambda m: "/quizzes" in m.text)
        refusal = "This question cannot be reported from here."
        for data in (
            f"rpr:{attempt_id}:0:k",  # the owner's attempt
            f"rp:{attempt_id}:0",
            f"rpb:{attempt_id}:0",
            "rpr:999999:0:k",  # an attempt that never existed
        ):
            popup = await intruder.tap(own, callback_data=data)
            assert popup is not None and popup.text == refusal, data
        # The owner: a question not answered yet, an index out of range, a reason never made.
        for data in (f"rpr:{attempt_id}:1:k", f"rpr:{attempt_id}:99:t"):
            popup = await owner.tap(shown, callback_data=data)
            assert popup is not None and popup.text == refusal, data
        popup = await owner.tap(shown, callback_data=f"rpr:{attempt_id}:0:x")
        assert popup is not None and popup.text and "expired" in popup.text
        # Replayed on the owner's own message from the intruder's side: nothing either.
        popup = await intruder.tap(shown, callback_data=f"rpr:{attempt_id}:0:k")
        assert popup is not None and popup.text == refusal
        assert h.problem_reports() == []
        assert buttons(owner.private.message(shown.message_id)) == ["Next ▶️", "⚠️ Report"]
        # A forged Skip of someone else's report changes nothing.
        reasons = await open_reasons(owner, shown)
        mark = owner.private.mark()
        await owner.tap(reasons, "Something else")
        invite = await owner.private.next_message(after=mark)
        ((report_id,),) = h.rows("SELECT id FROM problem_reports")
        popup = await intruder.tap(own, callback_data=f"rps:{report_id}")
        assert popup is not None and popup.text == "This button has expired.", popup
        assert h.rows("SELECT text_until IS NOT NULL FROM problem_reports") == [(1,)]
        assert buttons(owner.private.message(invite.message_id)) == ["Skip"]
        # A Skip for a report that never existed was thanked for: it is told it has expired.
        for data in (f"rps:{report_id + 1}", "rps:999999"):
            popup = await owner.tap(invite, callback_data=data)
            assert popup is not None and popup.text == "This button has expired.", data
        assert h.rows("SELECT text_until IS NOT NULL FROM problem_reports") == [(1,)]
        assert buttons(owner.private.message(invite.message_id)) == ["Skip"]
        # The owner's own Skip, tapped again once done: still thanked (the report is kept).
        await owner.tap(invite, "Skip")
        await owner.private.wait_for(lambda m: m.message_id == invite.message_id and not m.buttons)
        popup = await owner.tap(invite, callback_data=f"rps:{report_id}")
        assert popup is not None and popup.text == "🙏 Thanks — the authors will look at it."


async def test_the_wolof_intro_says_the_translation_is_not_reviewed(tmp_path: Path) -> None:
    async with bot_at(tmp_path) as h:
        for code, expected in (
            ("wo", "Tekki bii, kenn ku làkk Wolof xoolaagul ko ba tey"),
            ("fr", None),
            ("en", None),
        ):
            user = h.emu.user(7320 + len(code) + ord(code[0]), "Awa", language_code=code)
            mark = user.private.mark()
            await user.send("/quizzes")
            listing = await user.private.next_message(after=mark)
            mark = user.private.mark()
            await user.tap(listing, buttons(listing)[0])
            card = await user.private.wait_for(
                lambda m, lid=listing.message_id: m.message_id == lid and m.edited, after=mark
            )
            if expected is None:
                assert "native speaker" not in card.text and "Tekki bii" not in card.text
            else:
                assert expected in card.text and "⚠️ Yégle ko" in card.text


async def test_groupstats_counts_reports_per_question_for_admins(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        group, admin = await make_group(h)
        member = h.emu.user(7331, "Kadi", language_code="en")
        group.add_member(member)
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        await member.tap(q1, "A")
        await admin.send("/stop", chat=group)
        await group.wait_for(lambda m: "stopped" in m.text)

        # Reports are made privately, by a member and by someone outside the group.
        outsider = h.emu.user(7332, "Bob", language_code="fr")
        for user, reasons in ((member, [REASONS[0], REASONS[2]]), (outsider, [REASONS[1]])):
            question = await start_quiz(user, QUIZ, total=2)
            mark = user.private.mark()
            await user.tap(question, "A")
            shown = await answered(user.private, question, mark)
            for reason in reasons:
                mark = user.private.mark()
                if user is member:
                    await user.tap(await open_reasons(user, shown), reason)
                else:
                    french = await open_reasons(user, shown, "⚠️ Signaler", "⬅️ Retour")
                    await user.tap(french, "La question n’est pas claire")
                await user.private.next_message(after=mark)  # the invitation
        assert len(h.problem_reports()) == 3

        mark = group.mark()
        await admin.send("/groupstats", chat=group)
        stats = await group.next_message(after=mark)
        assert stats.text.count("⚠️") == 1
        assert "⚠️ 3 problem reports from learners" in stats.text


async def test_the_sentence_is_awaited_across_a_restart(tmp_path: Path) -> None:
    async with bot_at(tmp_path) as h:
        user = h.emu.user(7341, "Awa", language_code="fr")
        shown = await answer_first(user)
        reasons = await open_reasons(user, shown, "⚠️ Signaler", "⬅️ Retour")
        mark = user.private.mark()
        await user.tap(reasons, "La traduction est fautive")
        invite = await user.private.next_message(after=mark)
        assert "d’ici 5 minutes" in invite.text
        assert "Signalé\u00a0: «\u202fLa traduction" in invite.text
        await h.restart_bot()
        mark = user.private.mark()
        await user.send("« Gradient » se dit pareil.")
        thanks = await user.private.next_message(after=mark)
        assert thanks.text == "🙏 Merci — les auteurs vont s’en occuper."
        assert [(r[3], r[5], r[6]) for r in h.problem_reports()] == [
            ("fr", "translation", "« Gradient » se dit pareil.")
        ]


async def test_a_pictured_question_is_reported_the_same_way(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=picture_catalog(tmp_path)) as h:
        user = h.emu.user(7351, "Awa", language_code="en")
        question = await start_quiz(user, "gradient-checkpointing", total=2)
        assert question.photo is not None
        mark = user.private.mark()
        await user.tap(question, "A")
        shown = await answered(user.private, question, mark)
        assert buttons(shown) == ["Next ▶️", "⚠️ Report"]
        reasons = await open_reasons(user, shown)
        assert reasons.photo is not None and reasons.text == shown.text  # the caption stays
        mark = user.private.mark()
        await user.tap(reasons, "Something else")
        invite = await user.private.next_message(after=mark)
        await user.tap(invite, "Skip")
        ((question_id, reason),) = h.rows("SELECT question_id, reason FROM problem_reports")
        assert (question_id, reason) == ("sqrt-n", "other")
