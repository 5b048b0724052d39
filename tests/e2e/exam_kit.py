"""Exams for end-to-end tests: how many questions an exam asks, its first question, one
answer. Shared by the exam tests, so no test imports another."""

from __future__ import annotations

from bot.core.kinds import ONE_TAP
from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness
from tests.e2e.practice_kit import LETTERS, right_letter
from tests.e2e.progress_kit import QUIZ


def exam_length(h: Harness) -> int:
    """How many questions an exam of QUIZ asks: the kinds one tap answers (no number
    question, typed, nor select-all one, toggled then submitted)."""
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    return sum(q.kind in ONE_TAP for q in quiz.questions)


async def exam_started(user: SimUser, clock: str = "30 s per question") -> EmuMessage:
    """/exam of QUIZ with the `clock` button's time: its first question."""
    chat = user.private
    mark = chat.mark()
    await user.send(f"/exam {QUIZ}")
    choice = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(choice, clock)
    return await chat.next_message(after=mark)


async def exam_answer(h: Harness, user: SimUser, shown: EmuMessage, *, right: bool) -> EmuMessage:
    """Answer an exam question; the bot's next message (the next question, or the results)."""
    correct = right_letter(h, shown)
    mark = user.private.mark()
    popup = await user.tap(shown, LETTERS[correct if right else (correct + 1) % 4])
    assert popup is not None and (popup.text or "").startswith("Answer saved:")
    return await user.private.next_message(after=mark)
