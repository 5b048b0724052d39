"""Select-all questions (kind: multiple, issue 17) in a private chat, through the emulator:
toggles redraw the learner's own buttons, an empty Submit is refused, the submitted set is the
one answer (stored with its ids and partial credit), the question is edited in place with the
verdict, the marked options and Next, and a forged toggle of another learner's attempt is
refused without changing anything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.content import load_catalog
from bot.core.kinds import QuestionKind
from tests.e2e.harness import SUBMIT, answered, right_letters, toggle_label
from tests.e2e.select_all_kit import QUIZ, SELECT_ALL, select_all_first
from tests.reliability.support import bot_at, buttons, content_copy, start_quiz


async def test_toggle_untoggle_submit_and_partial_credit(tmp_path: Path) -> None:
    catalog = load_catalog(content_copy(tmp_path / "content", edit=select_all_first))
    quiz = catalog.quiz(QUIZ)
    assert quiz is not None and quiz.questions[0].kind is QuestionKind.MULTIPLE
    async with bot_at(tmp_path, catalog=catalog) as h:
        user = h.emu.user(7301, "Awa", language_code="en")
        question = await start_quiz(user, QUIZ, total=2)
        assert "Select every right answer, then tap Submit." in question.text
        assert buttons(question) == ["☐ A", "☐ B", "☐ C", "☐ D", SUBMIT]

        # Submit with nothing selected: refused with an alert, nothing stored.
        refused = await user.tap(question, SUBMIT)
        assert refused is not None and refused.show_alert
        assert refused.text == "Select at least one option, then tap Submit."
        assert h.count() == 0

        right = right_letters(question, quiz.questions[0])
        assert len(right) == 2
        wrong = next(letter for letter in "ABCD" if letter not in right)
        # Toggle, untoggle: the learner's own message shows their selection.
        shown = await _toggled(user, question, wrong, f"☑ {wrong}")
        await _toggled(user, shown, wrong, f"☐ {wrong}")
        await _toggled(user, question, right[0], f"☑ {right[0]}")
        assert h.count() == 0  # toggles are not answers
        assert h.pending_selection_users() == [(7301,)]

        # Submit one of the two right options: partly right, 50 %.
        mark = user.private.mark()
        popup = await user.tap(question, SUBMIT)
        assert popup is not None and popup.text is not None
        assert popup.text.startswith(f"🟡 Partly right (50%): the right answers are {right[0]}, ")
        shown = await answered(user.private, question, mark)
        assert user.private.mark().next_message_id == mark.next_message_id  # edited in place
        assert f"✅ {right[0]}." in shown.text and f"⭕ {right[1]}." in shown.text
        # The legend names only the marks shown (no wrong pick here), and ⚠️ is Report's alone.
        assert "✅ right pick · ⭕ right answer left out" in shown.text
        assert "wrong pick" not in shown.text and "⚠️" not in shown.text
        assert "Checkpointing trades compute for activation memory" in shown.text
        assert f'href="{quiz.guide.url.get("en")}"' in shown.html
        assert buttons(shown) == ["Next ▶️", "⚠️ Report"]
        stored = h.rows(
            "SELECT option_id, selected_ids, score, is_correct, question_id FROM answers"
        )
        [(option_id, selected, score, is_correct, question_id)] = stored
        assert selected == option_id and selected in {"a", "c"}  # one of the two right ones
        assert (score, is_correct, question_id) == (0.5, 0, SELECT_ALL)
        assert h.pending_selection_count() == [(0,)]

        # The submission was the answer: later toggles and submits change nothing.
        again = await user.tap(question, callback_data=_data(question, "☐ A"))
        assert again is not None and again.text == "You already answered this question."
        again = await user.tap(question, callback_data=_data(question, SUBMIT))
        assert again is not None and again.text == "You already answered this question."
        assert h.count() == 1

        # Next: the second question, and the result counts the partly right answer as missed.
        mark = user.private.mark()
        await user.tap(shown, "Next ▶️")
        second = await user.private.next_message(after=mark)
        assert "2/2" in second.text and "☐ A" not in buttons(second)
        mark = user.private.mark()
        await user.tap(second, "A")
        done = await answered(user.private, second, mark)
        mark = user.private.mark()
        await user.tap(done, "🏁 See my score")
        result = await user.private.next_message(after=mark)
        assert "/2" in result.text and "You missed" in result.text
        # The mistakes screen shows the submitted set and the whole right set, each option
        # with the letter it had on the question, in the question's order.
        mark = user.private.mark()
        await user.tap(result, "🔎 Review my mistakes")
        mistakes = await user.private.next_message(after=mark)
        multiple = quiz.questions[0]
        picked = next(o for o in multiple.options if o.id == selected).text.get("en")
        texts = {letter: _option_text(question, letter) for letter in right}
        rights = " · ".join(f"{letter}. {texts[letter]}" for letter in right)
        assert f"Your answer: {right[0]}. {picked}" in mistakes.text
        assert f"Right answer: {rights}" in mistakes.text
        # The partly right answer joins the review queue (tests/e2e/test_select_all_review.py
        # reviews it with toggles and Submit).
        mark = user.private.mark()
        await user.send("/review")
        await user.private.next_message(after=mark)
        assert h.rows("SELECT count(*) FROM review_items WHERE question_id = ?", SELECT_ALL) == [
            (1,)
        ]


async def _toggled(user: Any, question: Any, letter: str, label: str) -> Any:
    """Tap `letter`'s toggle and wait for the learner's message to show `label`."""
    mark = user.private.mark()
    await user.tap(question, toggle_label(user.private.message(question.message_id), letter))
    return await user.private.wait_for(
        lambda m: m.message_id == question.message_id and toggle_label(m, letter) == label,
        after=mark,
    )


def _option_text(question: Any, letter: str) -> str:
    """An option's text as the question showed it after its letter ("B. text")."""
    for line in question.text.splitlines():
        if line.startswith(f"{letter}. "):
            return str(line[3:])
    raise AssertionError(f"no option {letter} in {question.text!r}")


def _data(question: Any, label: str) -> str:
    """The callback data a button of `question` carried when it was first shown."""
    data = question.button(label).callback_data
    assert isinstance(data, str)
    return data


async def test_the_exact_set_is_right_and_forged_toggles_are_refused(tmp_path: Path) -> None:
    catalog = load_catalog(content_copy(tmp_path / "content", edit=select_all_first))
    quiz = catalog.quiz(QUIZ)
    assert quiz is not None
    async with bot_at(tmp_path, catalog=catalog) as h:
        owner = h.emu.user(7302, "Awa", language_code="en")
        other = h.emu.user(7303, "Bob", language_code="fr")
        question = await start_quiz(owner, QUIZ, total=2)
        theirs = await start_quiz(other, QUIZ, total=2)
        toggle_a = _data(question, "☐ A")

        # Bob replays Awa's toggle and Submit from his own private chat: refused, in French.
        forged = await other.tap(theirs, callback_data=toggle_a)
        assert forged is not None and forged.text == "Cette question est close."
        forged = await other.tap(theirs, callback_data=_data(question, SUBMIT))
        assert forged is not None and forged.text == "Cette question est close."
        assert h.pending_selection_count() == [(0,)]
        assert buttons(owner.private.message(question.message_id))[0] == "☐ A"
        # A position no button carried.
        attempt = toggle_a.split(":")[1]
        bad = await owner.tap(question, callback_data=f"tg:{attempt}:0:7")
        assert bad is not None and bad.text == "This question is closed."
        # A toggle of a question that is not the current one.
        bad = await owner.tap(question, callback_data=f"tg:{attempt}:1:0")
        assert bad is not None and bad.text == "This question is closed."
        assert h.pending_selection_count() == [(0,)]

        right = right_letters(question, quiz.questions[0])
        for letter in right:
            await _toggled(owner, question, letter, f"☑ {letter}")
        mark = owner.private.mark()
        popup = await owner.tap(question, SUBMIT)
        assert popup is not None and popup.text == "✅ Right! You found every right answer."
        shown = await answered(owner.private, question, mark)
        assert all(f"✅ {letter}." in shown.text for letter in right)
        assert "❌" not in shown.text and "⚠️" not in shown.text
        assert h.rows("SELECT selected_ids, score, is_correct FROM answers") == [("a,c", 1.0, 1)]
