"""An exam gives no verdict and no key until it ends (issue 25, item 2), through the emulator.

Its misses join the review queue when the exam ends, however it ends: its last answer, its
clock, /stop, or a new exam or practice set in its place. Until then nothing that shows a verdict
or a key reaches the exam's questions: /review and "Practise my mistakes now" wait for the end,
and a review card already open when the exam began answers nothing more."""

from __future__ import annotations

from bot.core.review import DEFAULT_SCHEDULER
from tests.e2e.exam_kit import exam_answer, exam_length, exam_started
from tests.e2e.harness import Harness
from tests.e2e.practice_kit import LETTERS, right_letter
from tests.e2e.progress_kit import DAY, QUIZ, take_quiz

IN_EXAM = "⏱ You are in an exam:"


async def test_an_exams_misses_join_the_review_queue_only_when_it_ends(harness: Harness) -> None:
    h = harness
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    user = h.emu.user(3301, "Awa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={0})  # the exam's first question, missed before
    h.clock.advance(DAY)
    mark = chat.mark()
    await user.send("/review")
    card = await chat.next_message(after=mark)  # its review card, open
    assert "Review · 1 of 1" in card.text
    queue = h.review_queue()

    first = await exam_started(user)
    assert "Exam 1/" in first.text
    # The open review card of that very question would show its key: the exam closed it.
    popup = await user.tap(card, LETTERS[right_letter(h, card)])
    assert popup is not None and popup.text == "This review is over. /review to start a new one."
    assert h.review_log_count() == [(0,)]

    second = await exam_answer(h, user, first, right=False)
    third = await exam_answer(h, user, second, right=False)
    assert h.review_queue() == queue  # no verdict yet, not even through the queue

    mark = chat.mark()
    await user.send("/review")
    waits = await chat.next_message(after=mark)
    assert waits.text.startswith(IN_EXAM) and not waits.buttons
    popup = await user.tap(waits, callback_data=f"rvp:{user.id}")  # an offer from before
    assert popup is not None and (popup.text or "").startswith(IN_EXAM)
    assert h.rows("SELECT status FROM review_sessions") == [("stopped",)]  # none started

    shown = third
    for _ in range(exam_length(h) - 2):
        shown = await exam_answer(h, user, shown, right=True)
    assert "Exam finished" in shown.text
    ended = h.review_queue()
    assert [q for q, *_ in ended] == sorted([quiz.questions[0].id, quiz.questions[1].id])
    first_miss = DEFAULT_SCHEDULER.parameters[0]  # FSRS: a new card rated Again
    assert all(s == first_miss for _, s, *_ in ended)  # both missed: Again, due the next day

    await chat.wait_for(lambda m: "/exam for another" in m.text)  # the results' end
    mark = chat.mark()
    await user.send("/review")  # the exam is over: its misses may be practised now
    offer = await chat.next_message(after=mark)
    assert "2 missed questions are not due yet" in offer.text and offer.buttons


async def test_stop_ends_an_exam_and_its_misses_join_the_queue(harness: Harness) -> None:
    h = harness
    user = h.emu.user(3302, "Bob", language_code="en")
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
    first = await exam_started(user)
    second = await exam_answer(h, user, first, right=False)
    third = await exam_answer(h, user, second, right=True)
    assert h.review_queue() == []

    mark = chat.mark()
    await user.send("/stop")
    stopped = await chat.next_message(after=mark)
    assert stopped.text == (
        f"⏹ Exam stopped after 2 of {exam_length(h)} questions (1 right). "
        "The ones you missed join your reviews. /exam to take another."
    )
    assert h.practice_set_marks() == [("abandoned", "wr")]
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    assert [q for q, *_ in h.review_queue()] == [quiz.questions[0].id]
    popup = await user.tap(third, LETTERS[right_letter(h, third)])  # the exam is over
    assert popup is not None and popup.text == "This question was already answered."
    assert h.practice_set_marks() == [("abandoned", "wr")]
    mark = chat.mark()
    await user.send("/stop")
    assert "no quiz running" in (await chat.next_message(after=mark)).text


async def test_a_new_exam_in_its_place_ends_the_running_one_with_its_misses(
    harness: Harness,
) -> None:
    h = harness
    user = h.emu.user(3303, "Fatou", language_code="en")
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
    first = await exam_started(user)
    await exam_answer(h, user, first, right=False)
    again = await exam_started(user)  # the first exam is abandoned: it is over
    assert "Exam 1/" in again.text
    assert h.rows("SELECT status, marks FROM practice_sets ORDER BY id") == [
        ("abandoned", "w"),
        ("active", ""),
    ]
    assert len(h.review_queue()) == 1
    mark = chat.mark()
    await user.send("/review")  # the new exam runs: its questions' keys stay out of reach
    assert (await chat.next_message(after=mark)).text.startswith(IN_EXAM)
    await exam_answer(h, user, again, right=False)
    assert len(h.review_queue()) == 1  # the new exam's miss waits for its end
