"""Nothing a learner can tap shows a right answer before they have answered (issue: hostile
taps). Callback data is attacker-controlled: a learner reads the attempt id on their own
question's buttons (`ans:<attempt>:…`) and can forge any other kind with it."""

from __future__ import annotations

from tests.e2e.harness import Harness
from tests.reliability.support import buttons

QUIZ = "gradient-accumulation"


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
