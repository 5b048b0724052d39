"""Review and practice rounds for end-to-end tests: a card's labels and its answer. Shared by the
round, report and learner-zone tests, so no test imports another."""

from __future__ import annotations

from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness, answered
from tests.e2e.progress_kit import LETTERS, QUIZ, question_in, right_letter

PRACTISE = "🎯 Practise my mistakes now"


def labels(message: EmuMessage) -> list[str]:
    return [b.text for row in message.buttons for b in row]


async def answer_card(
    user: SimUser, chat: ChatView, card: EmuMessage, h: Harness, *, right: bool
) -> EmuMessage:
    """Answer a card; return it once edited in place (verdict, explanation, way on)."""
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    pos = right_letter(card, quiz, question_in(card, quiz))
    mark = chat.mark()
    popup = await user.tap(card, LETTERS[pos if right else (pos + 1) % 4])
    assert popup is not None and (popup.text or "").startswith("✅" if right else "❌")
    done = await answered(chat, card, mark)
    assert chat.mark().next_message_id == mark.next_message_id  # one message per card
    return done
