"""While an exam runs, no private quiz shows a verdict or a key (issue 25, items 1-2), through
the emulator.

Mid-exam, the same quiz started as a private one (by /start <id>, a deep link, the list, Retake,
Start over) would judge each answer and explain it, and the learner would then answer the exam
with it. So while an exam runs no private quiz starts or goes on: a start, Continue, Next, an
answer (a tap, a toggle, Submit, a typed number) and "Review my mistakes" are refused with one
clear message and change nothing; /stop ends the exam, and then the quiz goes on where it was."""

from __future__ import annotations

import pytest

from bot.core.models import Quiz
from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.exam_kit import exam_started
from tests.e2e.harness import (
    Harness,
    answer_current,
    answered,
    is_select_all,
    reply_prompt,
    submit_label,
    toggle_label,
    typed_for,
)
from tests.e2e.progress_kit import QUIZ

IN_EXAM = {
    "en": "⏱ You are in an exam: your quizzes wait until it ends, so that none gives its answers "
    "away. /stop ends the exam.",
    "fr": "⏱ Vous passez un examen\u00a0: vos quiz attendent qu’il se termine, pour qu’aucun "
    "n’en dévoile les réponses. /stop arrête l’examen.",
    "wo": "⏱ Yaa ngi ci benn eksaamen: say quiz dinañu xaar ba mu jeex, ngir bañ a feeñal "
    "tontu yi. /stop dafay dakkal eksaamen bi.",
}
STORED = """SELECT (SELECT count(*) FROM attempts), (SELECT count(*) FROM answers),
                   (SELECT count(*) FROM pending_selections)"""


async def english(user: SimUser) -> ChatView:
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
    await chat.wait_for(lambda m: m.edited and "Quizzes" in m.text)
    return chat


async def exam_in_any_language(user: SimUser) -> EmuMessage:
    """/exam of QUIZ with its first clock (whatever the labels' language): its first question."""
    chat = user.private
    mark = chat.mark()
    await user.send(f"/exam {QUIZ}")
    choice = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(choice, callback_data=choice.buttons[0][0].callback_data)
    return await chat.next_message(after=mark)


async def replied(user: SimUser, text: str) -> EmuMessage:
    mark = user.private.mark()
    await user.send(text)
    return await user.private.next_message(after=mark)


async def quiz_until(user: SimUser, chat: ChatView, quiz: Quiz, index: int) -> EmuMessage:
    """A private quiz of QUIZ answered (A, or 0 typed) up to question `index`, now open."""
    mark = chat.mark()
    await user.send(f"/start {QUIZ}")
    for _ in range(index):
        explanation = await answer_current(user, await chat.next_message(after=mark))
        mark = chat.mark()
        await user.tap(explanation, explanation.buttons[0][0].text)  # Next
    question = await chat.next_message(after=mark)
    assert f"{index + 1}/{len(quiz)}" in question.text
    return question


def refused(popup: object, lang: str = "en") -> bool:
    return getattr(popup, "text", None) == IN_EXAM[lang]


async def test_no_quiz_starts_while_an_exam_runs(harness: Harness) -> None:
    h = harness
    user = h.emu.user(3311, "Awa", language_code="en")
    chat = await english(user)
    await exam_started(user)
    stored = h.rows(STORED)

    waits = await replied(user, f"/start {QUIZ}")  # also the deep link t.me/<bot>?start=<id>
    assert waits.text == IN_EXAM["en"] and not waits.buttons
    listing = await replied(user, "/quizzes")  # the list still shows
    await user.tap(listing, h.catalog.quizzes[QUIZ].title.get("en"))
    card = await chat.wait_for(
        lambda m: m.message_id == listing.message_id and "▶️ Start" in str(m.buttons)
    )
    assert refused(await user.tap(card, "▶️ Start"))
    assert refused(await user.tap(card, callback_data=f"new:{QUIZ}"))  # Start over
    assert refused(await user.tap(card, callback_data="go:gradient-checkpointing"))  # any quiz
    assert h.rows(STORED) == stored
    assert h.rows("SELECT kind, status FROM practice_sets") == [("exam", "active")]

    assert (await replied(user, "/stop")).text.startswith("⏹ Exam stopped after 0 of")
    question = await replied(user, f"/start {QUIZ}")  # the exam is over: quizzes start again
    assert "1/" in question.text and question.buttons


@pytest.mark.parametrize("lang", ["fr", "wo"])
async def test_the_refusal_speaks_the_learners_language(harness: Harness, lang: str) -> None:
    user = harness.emu.user(3312 + len(lang) + ord(lang[0]), "Ndèye", language_code=lang)
    await exam_in_any_language(user)
    assert (await replied(user, f"/start {QUIZ}")).text == IN_EXAM[lang]
    assert harness.attempt_count() == [(0,)]


async def test_a_quiz_open_before_the_exam_answers_nothing_until_it_ends(
    harness: Harness,
) -> None:
    h = harness
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    user = h.emu.user(3313, "Bob", language_code="en")
    chat = await english(user)
    first = await quiz_until(user, chat, quiz, 0)
    mark = chat.mark()
    await user.tap(first, "A")
    explanation = await answered(chat, first, mark)
    mark = chat.mark()
    await user.tap(explanation, explanation.buttons[0][0].text)  # Next
    second = await chat.next_message(after=mark)  # open, its buttons live
    await exam_started(user)  # an exam of the same quiz: this question is in it
    stored = h.rows(STORED)

    assert refused(await user.tap(second, "B"))
    assert chat.message(second.message_id).text == second.text  # no verdict, no explanation
    assert refused(
        await user.tap(explanation, callback_data=explanation.buttons[0][0].callback_data)
    )
    offer = await replied(user, "/start")  # the running quiz's offer: Continue waits too
    assert refused(await user.tap(offer, "▶️ Continue"))
    assert chat.message(offer.message_id).buttons == offer.buttons
    assert h.rows(STORED) == stored

    stopped = await replied(user, "/stop")  # the exam first; the quiz is still running
    assert (
        stopped.text.startswith("⏹ Exam stopped") and "Your quiz is still running" in stopped.text
    )
    popup = await user.tap(second, "B")  # the exam is over: the quiz goes on where it was
    assert popup is not None and (popup.text or "")[:1] in ("✅", "❌")
    assert h.answer_count() == [(2,)]


async def test_select_all_typed_answers_and_mistakes_wait_for_the_exam(harness: Harness) -> None:
    h = harness
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    user = h.emu.user(3314, "Fatou", language_code="en")
    chat = await english(user)
    select = await quiz_until(user, chat, quiz, 9)
    assert is_select_all(select)

    await exam_started(user)
    stored = h.rows(STORED)
    assert refused(await user.tap(select, toggle_label(select, "A")))
    assert refused(await user.tap(select, submit_label(select)))
    assert chat.message(select.message_id).buttons == select.buttons  # nothing ticked
    assert h.rows(STORED) == stored
    await replied(user, "/stop")

    explanation = await answer_current(user, chat.message(select.message_id))
    mark = chat.mark()
    await user.tap(explanation, explanation.buttons[0][0].text)  # Next: the number question
    number = await chat.next_message(after=mark)
    prompt = await chat.wait_for(lambda m: reply_prompt(m) and m.message_id > number.message_id)
    await exam_started(user)
    stored = h.rows(STORED)
    mark = chat.mark()
    await user.send(typed_for(quiz.questions[10], right=False), reply_to=prompt)
    assert (await chat.next_message(after=mark)).text == IN_EXAM["en"]
    assert h.rows(STORED) == stored
    assert chat.message(number.message_id).text == number.text  # no verdict
    await replied(user, "/stop")

    mark = chat.mark()
    await user.send(typed_for(quiz.questions[10], right=False), reply_to=prompt)
    explanation = await chat.wait_for(
        lambda m: m.message_id == number.message_id and m.edited, after=mark
    )
    mark = chat.mark()
    await user.tap(explanation, explanation.buttons[0][0].text)  # Next: the result
    result = await chat.next_message(after=mark)
    assert "🔎 Review my mistakes" in str(result.buttons)

    await exam_started(user)
    stored = h.rows(STORED)
    mark = chat.mark()
    assert refused(await user.tap(result, "🔎 Review my mistakes"))
    assert refused(await user.tap(result, "🔁 Retake"))
    assert (await replied(user, "/stop")).text.startswith("⏹ Exam stopped")
    assert (await chat.next_message(after=mark)).text.startswith("⏹ Exam stopped")  # none between
    assert h.rows(STORED) == stored
