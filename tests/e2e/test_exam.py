"""Exam mode through the emulator, on the harness's hand-moved clock (no sleeps): no verdict and
no explanation until the end; an answer after its time counts as missed; a total clock that ran
out ends the exam at the next tap; then the results with every explanation."""

from __future__ import annotations

from bot.core.kinds import ONE_TAP
from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.exam_kit import QUIZ, exam_length
from tests.e2e.harness import Harness
from tests.e2e.practice_kit import LETTERS, right_letter


def rows(h: Harness, sql: str, *args: object) -> list[tuple]:  # type: ignore[type-arg]
    return h.rows(sql, *args)


async def started(h: Harness, user: SimUser, clock_label: str, *, by_id: bool) -> EmuMessage:
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    mark = chat.mark()
    if by_id:
        await user.send(f"/exam {QUIZ}")
        choice = await chat.next_message(after=mark)
    else:
        await user.send("/exam")
        picker = await chat.next_message(after=mark)
        assert "Exam" in picker.text
        await user.tap(picker, quiz.title.get("en"))
        choice = await chat.wait_for(
            lambda m: m.message_id == picker.message_id and "how much time" in m.text
        )
    mark = chat.mark()
    await user.tap(choice, clock_label)
    return await chat.next_message(after=mark)


async def answer(
    h: Harness, user: SimUser, shown: EmuMessage, right: bool
) -> tuple[str, EmuMessage | None]:
    """Tap the right (or a wrong) letter; the popup and the bot's next message, if any."""
    correct = right_letter(h, shown)
    mark = user.private.mark()
    popup = await user.tap(shown, LETTERS[correct if right else (correct + 1) % 4])
    assert popup is not None
    following = await user.private.next_message(after=mark)
    return popup.text or "", following


async def test_exam_per_question_clock(harness: Harness) -> None:
    h = harness
    user = h.emu.user(4001, "Awa", language_code="en")
    shown = await started(h, user, "30 s per question", by_id=False)
    assert "Exam 1/9" in shown.text and "⏱ 30 s for this question" in shown.text
    results: list[EmuMessage] = []
    picked_wrong = ""
    for index in range(9):
        if index == 1:
            h.clock.advance(31)  # too late for question 2
        else:
            h.clock.advance(5)
        if index == 2:
            picked_wrong = LETTERS[(right_letter(h, shown) + 1) % 4]
        popup, following = await answer(h, user, shown, right=index != 2)
        if index == 1:
            assert popup == "⏰ Time was up: this one counts as missed."
        else:
            assert popup.startswith("Answer saved:")  # no verdict during an exam
        assert "✅" not in popup and "❌" not in popup
        edited = user.private.message(shown.message_id)
        assert "📖" not in edited.text and not edited.buttons  # no explanation yet
        assert following is not None
        if index < 8:
            assert f"Exam {index + 2}/9" in following.text
            shown = following
        else:
            results.append(following)
    await user.private.wait_for(lambda m: "/exam for another" in m.text)
    text = "\n".join(m.text for m in user.private.messages if m.message_id >= results[0].message_id)
    assert "Exam finished: " in text and ", 7/9" in text
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    for question in quiz.questions:  # every explanation, at the end (exams ask no number ones)
        if question.kind not in ONE_TAP:
            continue
        assert question.explanation.get("en").replace("`", "")[:40] in text
    assert text.count("⏰") == 1 and text.count("❌") == 1
    # Issue 28 #28: the missed question shows the learner's own pick (the late one has none).
    assert text.count("Your answer: ") == 1
    assert f"Your answer: {picked_wrong} · " in text
    assert h.queued_count(4001) == [(2,)]


async def test_exam_total_clock_runs_out(harness: Harness) -> None:
    h = harness
    user = h.emu.user(4002, "Modou", language_code="en")
    shown = await started(h, user, "5 min in all", by_id=True)
    assert "⏱ 5:00 left in all" in shown.text
    h.clock.advance(100)
    popup, second = await answer(h, user, shown, right=True)
    assert popup.startswith("Answer saved:") and second is not None
    assert "⏱ 3:20 left in all" in second.text
    h.clock.advance(201)  # the whole exam's time is over
    popup, result = await answer(h, user, second, right=True)
    assert popup == "⏰ Time was up: this one counts as missed."
    assert result is not None and ", 1/9" in result.text
    assert h.practice_set_marks() == [("finished", "rtttttttt")]
    ((set_id,),) = rows(h, "SELECT id FROM practice_sets")
    late = await user.tap(second, callback_data=f"pa:{set_id}:2:0")  # a tap after the time
    assert late is not None and (late.text or "").startswith("⏰ Time is up for this question")


async def test_a_total_clock_ends_the_exam_of_a_learner_who_walked_away(harness: Harness) -> None:
    """Nobody taps after the first answer: the exam's timer ends it when the total time is up
    (here the bot is down at that moment, so the timer is rebuilt from the store at start-up)
    and the results come once, with every explanation; a tap afterwards changes nothing."""
    h = harness
    user = h.emu.user(4003, "Fatou", language_code="en")
    shown = await started(h, user, "5 min in all", by_id=True)
    h.clock.advance(10)
    popup, second = await answer(h, user, shown, right=True)
    assert popup.startswith("Answer saved:") and second is not None
    await h.stop_bot()
    h.clock.advance(300)  # the learner walked away; the five minutes are over
    mark = user.private.mark()
    await h.start_bot()
    ended = await user.private.wait_for(lambda m: "Exam finished" in m.text, after=mark)
    assert ended.text.startswith("⏰ Time is up: every question not answered counts as missed.")
    assert f", 1/{exam_length(h)}" in ended.text
    await user.private.wait_for(lambda m: "/exam for another" in m.text, after=mark)
    text = "\n".join(m.text for m in user.private.messages if m.message_id >= ended.message_id)
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    for question in quiz.questions:  # every explanation (exams ask no number questions)
        if question.kind not in ONE_TAP:
            continue
        assert question.explanation.get("en").replace("`", "")[:40] in text
    assert h.practice_set_marks() == [("finished", "r" + "t" * (exam_length(h) - 1))]
    missed = exam_length(h) - 1  # every question but the first, answered
    assert h.queued_count(4003) == [(missed,)]

    late = await user.tap(second, LETTERS[right_letter(h, second)])  # back, too late
    assert late is not None and (late.text or "").startswith("⏰ Time is up for this question")
    await user.private.wait_for(lambda m: m.message_id == second.message_id and not m.buttons)
    assert h.practice_set_marks() == [("finished", "r" + "t" * (exam_length(h) - 1))]

    await h.restart_bot()  # nothing left to end: the results are not sent again
    mark = user.private.mark()
    await user.send("/help")
    await user.private.next_message(after=mark)
    assert sum("Exam finished" in m.text for m in user.private.messages) == 1


async def test_a_question_clock_moves_on_without_a_tap(harness: Harness) -> None:
    """Per-question clock, no tap: when the question's time is up it counts as missed and the
    next question comes (its own full time); the old question's buttons say time is up."""
    h = harness
    total = exam_length(h)
    user = h.emu.user(4004, "Ibou", language_code="en")
    shown = await started(h, user, "30 s per question", by_id=True)
    await h.stop_bot()
    h.clock.advance(31)
    mark = user.private.mark()
    await h.start_bot()
    note = await user.private.wait_for(lambda m: "Time is up for question 1" in m.text, after=mark)
    second = await user.private.wait_for(lambda m: f"Exam 2/{total}" in m.text, after=mark)
    assert second.message_id > note.message_id and "⏱ 30 s for this question" in second.text
    assert h.practice_set_progress() == [("active", 1, "t")]
    late = await user.tap(shown, LETTERS[right_letter(h, shown)])
    assert late is not None and (late.text or "").startswith("⏰ Time is up for this question")
    assert h.practice_set_progress() == [("active", 1, "t")]
    h.clock.advance(5)
    popup, third = await answer(h, user, second, right=True)  # the next one has its full time
    assert (
        popup.startswith("Answer saved:") and third is not None and f"Exam 3/{total}" in third.text
    )
    assert rows(h, "SELECT answered, marks FROM practice_sets") == [(2, "tr")]


async def test_the_clock_choice_loses_its_buttons_once_the_exam_starts(harness: Harness) -> None:
    """A second tap on the choice (a double tap, or one from question 5) started the exam over,
    silently ending the one running, with a second "Exam 1/9" under the first."""
    user = harness.emu.user(4009, "Moussa", language_code="wo")
    chat = user.private
    mark = chat.mark()
    await user.send(f"/exam {QUIZ}")
    choice = await chat.next_message(after=mark)
    label = choice.buttons[0][0].text  # "15 s ci laaj bu nekk"
    mark = chat.mark()
    await user.tap(choice, label)
    first = await chat.next_message(after=mark)
    assert first.text.startswith(f"Eksaamen 1/{exam_length(harness)}"), first.text
    await chat.wait_for(lambda m: m.message_id == choice.message_id and not m.buttons)


async def test_a_double_tap_on_the_clock_choice_starts_one_exam(harness: Harness) -> None:
    """The second tap of a double tap arrives with the choice's data before its buttons are
    gone: it started the exam over, abandoning the first unseen, under a second "Exam 1/9"."""
    user = harness.emu.user(4011, "Claire", language_code="fr")
    chat = user.private
    mark = chat.mark()
    await user.send(f"/exam {QUIZ}")
    choice = await chat.next_message(after=mark)
    data = choice.buttons[0][0].callback_data
    mark = chat.mark()
    await user.tap(choice, callback_data=data)
    again = await user.tap(choice, callback_data=data)
    assert again is not None  # answered, not dropped
    await chat.next_message(after=mark)
    await chat.wait_for(lambda m: m.message_id == choice.message_id and not m.buttons)
    assert [m for m in chat.bot_messages if m.message_id > choice.message_id][1:] == []
    assert harness.practice_set_marks() == [("active", "")]
