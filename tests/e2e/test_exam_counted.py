"""An exam leaves a trace (newcomer walk item 10): /stats counts it, with its score, and its
queued misses never sit next to "No answers yet"."""

from __future__ import annotations

from tests.e2e.exam_kit import exam_answer, exam_length, exam_started
from tests.e2e.harness import Harness
from tests.e2e.progress_kit import QUIZ


async def test_stats_counts_a_finished_exam(harness: Harness) -> None:
    h = harness
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    user = h.emu.user(3401, "Bob", language_code="en")
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
    n = exam_length(h)
    shown = await exam_started(user)
    for index in range(n):
        shown = await exam_answer(h, user, shown, right=index != 0)
    assert "Exam finished" in shown.text
    await chat.wait_for(lambda m: "/exam for another" in m.text)  # the results' last part
    mark = chat.mark()
    await user.send("/stats")
    stats = await chat.next_message(after=mark)
    assert "No answers yet" not in stats.text
    assert "Exams taken: 1" in stats.text
    title = quiz.title.get("en")
    assert f"• {title}: best {n - 1}/{n}, last {n - 1}/{n}" in stats.text
    assert "(in your queue: 1)" in stats.text


async def test_the_clock_choice_says_which_questions_an_exam_leaves_out(harness: Harness) -> None:
    """Newcomer walk item 28: "Exam 1/9" for an 11-question quiz, with no word about why."""
    h = harness
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    left_out = len(quiz.questions) - exam_length(h)
    assert left_out > 0  # the shipped quiz has number and select-all questions
    user = h.emu.user(3402, "Claire", language_code="fr")
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ Français")
    mark = chat.mark()
    await user.send(f"/exam {QUIZ}")
    choice = await chat.next_message(after=mark)
    assert f"porte sur {exam_length(h)} des {len(quiz.questions)} questions" in choice.text
    assert f"{left_out} questions à taper ou à plusieurs réponses" in choice.text
