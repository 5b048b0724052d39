"""A learner's private quizzes and reviews for end-to-end tests: take a quiz missing some
questions, answer one review card, read which question a card shows. Shared by the progress,
review, exam and reload tests, so no test imports another."""

from __future__ import annotations

from bot.core.models import Quiz
from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness, answer_as, answer_current, answered, typed_for

LETTERS = "ABCD"
QUIZ = "gradient-accumulation"
DAY = 86_400.0


def rows(h: Harness, sql: str, *args: object) -> list[tuple]:
    return h.rows(sql, *args)


def option_lines(text: str) -> list[str]:
    return [
        line
        for line in text.splitlines()
        if line[:2] in {f"{c}." for c in LETTERS} or line[2:4] in {f"{c}." for c in LETTERS}
    ]


def is_card(message: EmuMessage) -> bool:
    """A question waiting for its answer: its buttons are the letters."""
    return bool(message.buttons) and message.buttons[0][0].text == "A"


def question_in(message: EmuMessage, quiz: Quiz) -> int:
    """Which of the quiz's questions a message shows, read from its prompt."""
    found = [
        i
        for i, q in enumerate(quiz.questions)
        if q.prompt.get("en").replace("`", "") in message.text
    ]
    assert len(found) == 1, message.text
    return found[0]


def right_letter(message: EmuMessage, quiz: Quiz, index: int) -> int:
    q = quiz.questions[index]
    right = q.options[q.correct].text.get("en").replace("`", "")
    for pos, line in enumerate(option_lines(message.text)):
        if line[3:].strip() == right:
            return pos
    raise AssertionError(f"{right!r} not in {message.text}")


async def take_quiz(
    user: SimUser, chat: ChatView, quiz: Quiz, miss: set[int], *, first: bool = True
) -> None:
    if first:
        await user.send("/start")
        picker = await chat.wait_for(lambda m: bool(m.buttons))
        await user.tap(picker, "✓ English")
    mark = chat.mark()
    await user.send(f"/start {QUIZ}")
    for index in range(len(quiz)):
        question = await chat.next_message(after=mark)
        if quiz.questions[index].typed:  # a number question: the answer is typed
            typed = typed_for(quiz.questions[index], right=index not in miss)
            explanation = await answer_current(user, question, typed=typed)
        else:
            mark = chat.mark()
            await answer_as(user, question, quiz.questions[index], right=index not in miss)
            explanation = await answered(chat, question, mark)
        mark = chat.mark()
        await user.tap(explanation, explanation.buttons[0][0].text)
    await chat.next_message(after=mark)  # the score


async def review_once(user: SimUser, chat: ChatView, quiz: Quiz, *, right: bool = True) -> int:
    """Answer one served review question; return which question it was."""
    card = await chat.wait_for(lambda m: "Review" in m.text and is_card(m))
    index = question_in(card, quiz)
    pos = right_letter(card, quiz, index)
    mark = chat.mark()
    answer = await user.tap(card, LETTERS[pos if right else (pos + 1) % 4])
    assert answer is not None and (answer.text or "").startswith("✅" if right else "❌")
    feedback = await answered(chat, card, mark)  # one message per question: the card, edited
    assert quiz.guide.url.get("en") in feedback.html
    assert quiz.questions[index].explanation.get("en").split("`")[0][:25] in feedback.text
    assert chat.mark().next_message_id == mark.next_message_id  # no second message
    mark = chat.mark()
    await user.tap(feedback, feedback.buttons[0][0].text)  # Next ▶️ or 🏁 See the summary
    return index
