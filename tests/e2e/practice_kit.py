"""Practice sets for end-to-end tests: play a set, read which question a card shows and where its
right answer sits. Shared by the practice and exam tests, so no test imports another."""

from __future__ import annotations

from bot.core.models import Question, Quiz
from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness

LETTERS = "ABCD"


def shown_question(h: Harness, text: str) -> tuple[Quiz, Question]:
    for quiz in h.catalog:
        for question in quiz.questions:
            if question.prompt.get("en").replace("`", "") in text:
                return quiz, question
    raise AssertionError(f"no question of the catalogue in:\n{text}")


def right_letter(h: Harness, message: EmuMessage) -> int:
    _, question = shown_question(h, message.text)
    right = question.options[question.correct].text.get("en").replace("`", "")
    lines = [line for line in message.text.splitlines() if line[:2] in {f"{c}." for c in LETTERS}]
    return next(pos for pos, line in enumerate(lines) if line[3:].strip() == right)


async def play_set(h: Harness, user: SimUser, chooser: EmuMessage, miss: set[int]) -> EmuMessage:
    """Start the chosen set and answer it, missing the questions numbered in `miss`."""
    chat = user.private
    mark = chat.mark()
    await user.tap(chooser, "▶️ Start")
    index = 0
    while True:
        shown = await chat.next_message(after=mark)
        if "Practice done" in shown.text:
            return shown
        assert f"Practice {index + 1}/" in shown.text
        right = right_letter(h, shown)
        tap = (right + 1) % 4 if index in miss else right
        mark = chat.mark()
        answer = await user.tap(shown, LETTERS[tap])
        assert answer is not None and (answer.text or "").startswith("✅" if tap == right else "❌")
        again = await user.tap(shown, LETTERS[right])  # a second tap changes nothing
        assert again is not None and again.text == "This question was already answered."
        explained = await chat.wait_for(
            lambda m, i=shown.message_id: m.message_id == i and "📖" in m.text
        )
        assert [b.text for row in explained.buttons for b in row] == ["⚠️ Report"]
        index += 1
