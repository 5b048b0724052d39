"""Select-all questions (kind: multiple) in review and practice rounds (issue 17), through the
emulator: a missed one comes back the next day as a card with toggles and Submit, toggles are
kept server-side and bound to the learner's round and card (another learner's forged toggle is
refused and stores nothing), Submit scores by the partial-credit rule (the schedule moves on the
exact set only) and edits the card in place; a practice round leaves the schedule alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.content import load_catalog
from bot.core.review import DEFAULT_SCHEDULER
from tests.e2e.harness import SUBMIT, answer_select_all, answered, right_letters, wrong_letter
from tests.e2e.progress_kit import DAY
from tests.e2e.select_all_kit import QUIZ, SELECT_ALL, select_all_first
from tests.reliability.support import bot_at, buttons, content_copy, start_quiz


async def _miss_select_all(h: Any, user: Any) -> Any:
    """Take the two-question quiz, the select-all one answered with one wrong option."""
    quiz = h.catalog.quiz(QUIZ)
    question = await start_quiz(user, QUIZ, total=2)
    mark = user.private.mark()
    await answer_select_all(user, question, wrong_letter(question, quiz.questions[0]))
    shown = await answered(user.private, question, mark)
    mark = user.private.mark()
    await user.tap(shown, "Next ▶️")
    second = await user.private.next_message(after=mark)
    mark = user.private.mark()
    await user.tap(second, "A")
    await answered(user.private, second, mark)
    return quiz.questions[0]


def _schedule(h: Any) -> list[tuple[Any, ...]]:
    return h.schedule_of(SELECT_ALL)


async def test_a_missed_select_all_question_is_reviewed_with_toggles_and_submit(
    tmp_path: Path,
) -> None:
    catalog = load_catalog(content_copy(tmp_path / "content", edit=select_all_first))
    async with bot_at(tmp_path, catalog=catalog) as h:
        user = h.emu.user(7321, "Awa", language_code="en")
        other = h.emu.user(7322, "Bob", language_code="en")
        q = await _miss_select_all(h, user)
        h.clock.advance(DAY)
        mark = user.private.mark()
        await user.send("/review")
        card = await user.private.next_message(after=mark)
        assert "Review · 1 of" in card.text and q.prompt.get("en") in card.text
        assert "Select every right answer, then tap Submit." in card.text
        assert buttons(card) == ["☐ A", "☐ B", "☐ C", "☐ D", SUBMIT]
        missed = _schedule(h)
        assert [s for s, _ in missed] == [DEFAULT_SCHEDULER.parameters[0]]  # joined: Again

        # Submit with nothing selected: refused with an alert, nothing changes.
        refused = await user.tap(card, SUBMIT)
        assert refused is not None and refused.show_alert
        assert refused.text == "Select at least one option, then tap Submit."

        # Another learner's forged toggle and submit: refused, nothing stored.
        data = card.button("☐ A").callback_data
        forged = await other.tap(card, callback_data=data)
        assert forged is not None and forged.text == "This button is not for you."
        data = card.button(SUBMIT).callback_data
        forged = await other.tap(card, callback_data=data)
        assert forged is not None and forged.text == "This button is not for you."
        assert h.pending_selection_count() == [(0,)]

        # Toggle a wrong one on and off (kept server-side, shown as ☑), then the right set.
        right = right_letters(card, q)
        wrong = wrong_letter(card, q)
        mark = user.private.mark()
        await user.tap(card, f"☐ {wrong}")
        ticked = await user.private.wait_for(
            lambda m: m.message_id == card.message_id and f"☑ {wrong}" in buttons(m), after=mark
        )
        assert h.pending_selection_users() == [(7321,)]
        await user.tap(ticked, f"☑ {wrong}")
        mark = user.private.mark()
        popup = await answer_select_all(user, card, right)
        assert popup is not None and popup.text == "✅ Right! You found every right answer."
        shown = await answered(user.private, card, mark)
        assert user.private.mark().next_message_id == mark.next_message_id  # edited in place
        for letter in right:
            assert f"✅ {letter}." in shown.text
        assert "Checkpointing trades compute for activation memory" in shown.text
        assert "Next review of this question" in shown.text
        assert buttons(shown)[-1] == "⚠️ Report"
        # Right: FSRS spaces the question out; the selection is gone.
        ((stability, due),) = _schedule(h)
        assert stability > missed[0][0] and due > missed[0][1]
        assert h.pending_selection_count() == [(0,)]
        logged = h.review_verdicts(SELECT_ALL)
        assert logged == [(1,)]
        # A late toggle on the answered card changes nothing.
        late = await user.tap(card, callback_data=card.button("☐ A").callback_data)
        assert late is not None and late.text == "You already answered this question."


async def test_a_partly_right_practice_answer_leaves_the_schedule_alone(tmp_path: Path) -> None:
    catalog = load_catalog(content_copy(tmp_path / "content", edit=select_all_first))
    async with bot_at(tmp_path, catalog=catalog) as h:
        user = h.emu.user(7323, "Awa", language_code="en")
        q = await _miss_select_all(h, user)
        mark = user.private.mark()
        await user.send("/review")  # nothing due yet: the offer to practise now
        offer = await user.private.next_message(after=mark)
        schedule = _schedule(h)
        assert schedule
        mark = user.private.mark()
        await user.tap(offer, "🎯 Practise my mistakes now")
        card = await user.private.next_message(after=mark)
        while q.prompt.get("en") not in card.text:  # the single-answer miss may come first
            mark = user.private.mark()
            await user.tap(card, "A")
            done = await answered(user.private, card, mark)
            mark = user.private.mark()
            await user.tap(done, buttons(done)[0])
            card = await user.private.next_message(after=mark)
        assert "Practice" in card.text and SUBMIT in buttons(card)
        right = right_letters(card, q)
        mark = user.private.mark()
        popup = await answer_select_all(user, card, right[0])  # one of the two right ones
        assert popup is not None and popup.text is not None
        assert popup.text.startswith("🟡 Partly right (50%): the right answers are ")
        shown = await answered(user.private, card, mark)
        assert f"✅ {right[0]}." in shown.text and f"⭕ {right[1]}." in shown.text
        assert "✅ right pick · ⭕ right answer left out" in shown.text
        assert "wrong pick" not in shown.text
        assert "schedule stays as it was" in shown.text
        assert _schedule(h) == schedule
        assert h.review_log_count() == [(0,)]
