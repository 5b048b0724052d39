"""⚠️ Report on answered review and practice cards (issue 14): the same flow as under a quiz
question (reasons in the card's own keyboard, Back, a stored report, the invitation), bound to
the round and card the card's Next already names; the question stored is the one the round
served, found server-side; another learner's forged tap stores nothing."""

from __future__ import annotations

from tests.e2e.harness import Harness
from tests.e2e.progress_kit import DAY, QUIZ, question_in, take_quiz
from tests.e2e.reports_kit import REASONS, open_reasons
from tests.e2e.rounds_kit import PRACTISE, answer_card, labels


async def test_report_from_a_review_card_then_back_and_on(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3401, "Awa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={2, 5})
    harness.clock.advance(DAY)
    mark = chat.mark()
    await user.send("/review")
    card = await chat.next_message(after=mark)
    assert "⚠️ Report" not in labels(card)  # unanswered: nothing to report yet
    done = await answer_card(user, chat, card, harness, right=True)
    assert labels(done) == ["Next ▶️", "⚠️ Report"]

    # Back restores the card's buttons; nothing stored.
    reasons = await open_reasons(user, done)
    assert labels(reasons) == REASONS and reasons.text == done.text
    mark = chat.mark()
    await user.tap(reasons, "⬅️ Back")
    back = await chat.wait_for(
        lambda m: m.message_id == done.message_id and "⚠️ Report" in labels(m), after=mark
    )
    assert labels(back) == ["Next ▶️", "⚠️ Report"] and harness.problem_reports() == []

    # Another learner taps this card's reasons with forged data: refused, nothing stored.
    other = harness.emu.user(3402, "Eve", language_code="en")
    await other.send("/help")
    own = await other.private.wait_for(lambda m: "/quizzes" in m.text)
    reasons = await open_reasons(user, back)
    data = reasons.buttons[1][0].callback_data
    assert data is not None and data.startswith("rvrr:")
    round_id, index = data.split(":")[1:3]
    refusal = "This question cannot be reported from here."
    for forged in (data, f"rvr:{round_id}:{index}", f"rvrb:{round_id}:{index}"):
        popup = await other.tap(own, callback_data=forged)
        assert popup is not None and popup.text == refusal, forged
    popup = await other.tap(reasons, callback_data=data)  # the owner's message, from Eve
    assert popup is not None and popup.text == refusal
    # The owner: the card not answered yet (the next one), a round that never existed.
    for forged in (f"rvrr:{round_id}:1:k", "rvrr:999999:0:k"):
        popup = await user.tap(reasons, callback_data=forged)
        assert popup is not None and popup.text == refusal, forged
    assert harness.problem_reports() == []

    mark = chat.mark()
    await user.tap(reasons, "The question is unclear")
    invite = await chat.next_message(after=mark)
    assert invite.text.startswith("⚠️ Reported: The question is unclear.")
    question = quiz.questions[question_in(done, quiz)]
    assert harness.problem_reports() == [
        (user.id, QUIZ, question.id, "en", quiz.version, "unclear", None)
    ]
    restored = chat.message(done.message_id)
    assert labels(restored) == ["Next ▶️", "⚠️ Report"]
    # The round goes on from the same card.
    mark = chat.mark()
    await user.tap(restored, "Next ▶️")
    assert "Review · 2 of 2" in (await chat.next_message(after=mark)).text


async def test_report_from_a_practice_card_and_the_summary_button_comes_back(
    harness: Harness,
) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3403, "Moussa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={4})
    mark = chat.mark()
    await user.send("/review")
    offer = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(offer, PRACTISE)
    card = await chat.next_message(after=mark)
    done = await answer_card(user, chat, card, harness, right=False)
    assert labels(done) == ["🏁 See the summary", "⚠️ Report"]
    reasons = await open_reasons(user, done)
    mark = chat.mark()
    await user.tap(reasons, "The answer key looks wrong")
    await chat.next_message(after=mark)  # the invitation
    assert harness.problem_reports() == [
        (user.id, QUIZ, quiz.questions[4].id, "en", quiz.version, "key", None)
    ]
    assert labels(chat.message(done.message_id)) == ["🏁 See the summary", "⚠️ Report"]
