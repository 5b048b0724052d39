"""Nothing a learner can tap shows a right answer before they have answered (issue: hostile
taps). Callback data is attacker-controlled: a learner reads the attempt id on their own
question's buttons (`ans:<attempt>:…`) and can forge any other kind with it."""

from __future__ import annotations

from tests.e2e.harness import Harness
from tests.e2e.progress_kit import QUIZ, is_card, question_in, right_letter, take_quiz
from tests.e2e.rounds_kit import PRACTISE
from tests.reliability.support import buttons


async def test_review_my_mistakes_forged_on_a_running_or_abandoned_attempt_shows_no_answers(
    harness: Harness,
) -> None:
    """🔎 Review my mistakes is offered on a finished attempt's result only. Forged on an attempt
    still running (or left), it listed every unanswered question with its right answer, the one
    on screen included: the learner then answered all of them right."""
    user = harness.emu.user(3201, "Awa", language_code="en")
    await user.send("/start")
    picker = await user.private.wait_for(lambda m: bool(m.buttons))
    await user.tap(picker, buttons(picker)[0])
    mark = user.private.mark()
    await user.send(f"/start {QUIZ}")
    question = await user.private.wait_for(lambda m: "1/" in m.text and bool(m.buttons), after=mark)
    data = question.buttons[0][0].callback_data
    assert data is not None and data.startswith("ans:")
    attempt_id = int(data.split(":")[1])
    quiz = harness.catalog.quizzes[QUIZ]
    rights = [q.options[q.correct].text.get("en") for q in quiz.questions if q.kind == "single"]

    for stage in ("running", "abandoned"):
        if stage == "abandoned":
            mark = user.private.mark()
            await user.tap(user.private.message(question.message_id), callback_data=f"new:{QUIZ}")
            await user.private.wait_for(
                lambda m: "1/" in m.text and m.message_id > question.message_id, after=mark
            )
            assert harness.attempt_statuses() == [("abandoned",), ("active",)]
        mark = user.private.mark()
        refused = await user.tap(question, callback_data=f"rev:{attempt_id}")
        assert refused is not None and refused.text, stage
        new = [m.text for m in user.private.bot_messages if m.message_id >= mark.next_message_id]
        told = [t for t in new if not t.startswith("Question ")]  # a question lists its options
        assert not [t for t in told if "Right answer" in t or any(r in t for r in rights)], told


async def test_a_round_cards_buttons_do_not_say_which_letter_is_the_authors_first_option(
    harness: Harness,
) -> None:
    """A review or practice card's options come in a fresh order. Its buttons carried that
    order (`rva:<round>:<card>:<item>:<order>:<position>`): the digit 0 marked the option the
    author wrote first, and a quiz written with its right answer first (as GIFT files often
    are) had its key in every button. Forged with an order of the learner's choosing, a tap
    also answered the option of their choice, whatever letter it showed."""
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3202, "Awa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={1, 4})
    mark = chat.mark()
    await user.send("/review")
    offer = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(offer, PRACTISE)
    card = await chat.next_message(after=mark)
    assert is_card(card)
    index = question_in(card, quiz)
    count = len(quiz.questions[index].options)
    datas = [b.callback_data or "" for row in card.buttons for b in row]
    orders = {data.split(":")[4] for data in datas}
    assert orders == {"".join(map(str, range(count)))}, datas  # the same for every card

    right = right_letter(card, quiz, index)
    wrong = (right + 1) % count
    head = datas[wrong].rsplit(":", 2)[0]
    # The author's right option put at the wrong letter's place: still judged as that letter.
    forged = [quiz.questions[index].correct] + [
        i for i in range(count) if i != quiz.questions[index].correct
    ]
    forged_order = "".join(map(str, forged[1 : wrong + 1] + forged[:1] + forged[wrong + 1 :]))
    popup = await user.tap(card, callback_data=f"{head}:{forged_order}:{wrong}")
    assert popup is not None and (popup.text or "").startswith("❌"), popup
