"""Moving around in private: the list and a quiz card share one message; starting a quiz while
another is answered in part asks "continue or start over", from a link, the list or Retake;
changing language mid-quiz says where the quiz went."""

from __future__ import annotations

from bot.emulator import EmuMessage
from bot.emulator.driver import ChatView, SimUser
from tests.e2e.harness import Harness, answer_current, answered

QUIZ = "gradient-accumulation"
OTHER = "gradient-checkpointing"


async def english(user: SimUser) -> ChatView:
    chat = user.private
    await user.send("/start")
    picker = await chat.wait_for(lambda m: bool(m.buttons))
    await user.tap(picker, "✓ English")
    await chat.wait_for(lambda m: m.edited and "Quizzes" in m.text)
    return chat


async def answer_first_question(user: SimUser, chat: ChatView, quiz_id: str) -> None:
    mark = chat.mark()
    await user.send(f"/start {quiz_id}")
    question = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(question, "A")
    await answered(chat, question, mark)  # the explanation, in the question's message


async def test_list_and_card_are_one_message(harness: Harness) -> None:
    user = harness.emu.user(6001, "Lina", language_code="en")
    chat = await english(user)
    listing = chat.last
    assert listing is not None
    count = len(chat.bot_messages)
    title = harness.catalog.quizzes[QUIZ].title.get("en")
    await user.tap(listing, title)
    card = await chat.wait_for(
        lambda m: m.message_id == listing.message_id and "▶️ Start" in str(m.buttons)
    )
    await user.tap(card, "⬅️ All quizzes")
    await chat.wait_for(lambda m: m.message_id == listing.message_id and "📚 Quizzes" in m.text)
    assert len(chat.bot_messages) == count  # no new message for either move


async def test_continue_or_start_over_from_a_link_the_list_and_retake(harness: Harness) -> None:
    user = harness.emu.user(6002, "Omar", language_code="en")
    chat = await english(user)
    await answer_first_question(user, chat, QUIZ)
    title = harness.catalog.quizzes[QUIZ].title.get("en")
    other = harness.catalog.quizzes[OTHER].title.get("en")

    mark = chat.mark()
    await user.send(f"/start {QUIZ}")  # the same quiz, by its link
    offer = await chat.next_message(after=mark)
    assert offer.text.startswith(f"You have a quiz in progress: {title}, question 2 of")
    assert [row[0].text for row in offer.buttons] == ["▶️ Continue", "🔄 Start over"]
    attempts = harness.attempt_count()

    mark = chat.mark()
    await user.send("/quizzes")
    listing = await chat.next_message(after=mark)
    await user.tap(listing, other)
    card = await chat.wait_for(
        lambda m: m.message_id == listing.message_id and "▶️ Start" in str(m.buttons)
    )
    mark = chat.mark()
    await user.tap(card, "▶️ Start")  # another quiz, from its card
    offer = await chat.next_message(after=mark)
    assert [row[0].text for row in offer.buttons] == ["▶️ Continue", f"🆕 Start {other}"]
    assert harness.attempt_count() == attempts  # nothing started

    mark = chat.mark()
    await user.tap(offer, "▶️ Continue")
    question = await chat.next_message(after=mark)
    assert "Question 2/" in question.text and title in question.text

    mark = chat.mark()
    await user.send(f"/start {OTHER}")
    offer = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(offer, f"🆕 Start {other}")
    question = await chat.next_message(after=mark)
    assert "Question 1/" in question.text and other in question.text
    assert harness_rows(harness, "SELECT quiz_id, status FROM attempts ORDER BY id") == [
        (QUIZ, "abandoned"),
        (OTHER, "active"),
    ]


async def test_changing_language_mid_quiz_says_where_it_went(harness: Harness) -> None:
    user = harness.emu.user(6003, "Awa", language_code="en")
    chat = await english(user)
    await answer_first_question(user, chat, QUIZ)
    mark = chat.mark()
    await user.send("/language")
    picker = await chat.next_message(after=mark)
    await user.tap(picker, "Français")
    listing = await chat.wait_for(lambda m: m.message_id == picker.message_id and m.edited)
    title = harness.catalog.quizzes[QUIZ].title.get("fr")
    assert f"Votre quiz {title} vous attend\u00a0: /start pour le reprendre." in listing.text


def harness_rows(h: Harness, sql: str) -> list[tuple]:
    return h.rows(sql)


async def test_the_list_marks_new_in_progress_and_done_with_the_best_score(
    harness: Harness,
) -> None:
    user = harness.emu.user(6004, "Fatou", language_code="en")
    chat = await english(user)
    quiz = harness.catalog.quizzes[QUIZ]
    listing = chat.last
    assert listing is not None
    for each in harness.catalog:
        assert f"• {each.title.get('en')} · " in listing.text
    assert listing.text.count("🆕 new") == len(harness.catalog.quizzes)

    mark = chat.mark()  # QUIZ, every answer "A", to the end
    await user.send(f"/start {QUIZ}")
    for _ in range(len(quiz)):
        question = await chat.next_message(after=mark)
        explanation = await answer_current(user, question, choice="A", typed="1")
        mark = chat.mark()
        await user.tap(explanation, explanation.buttons[0][0].text)
    result = await chat.next_message(after=mark)
    score = result.text.split("Score: ")[1].split(" ")[0]  # "3/9"
    await answer_first_question(user, chat, OTHER)

    listing = await reply_to(user, chat, "/quizzes")
    title, other = quiz.title.get("en"), harness.catalog.quizzes[OTHER].title.get("en")
    done = next(line for line in listing.text.splitlines() if line.startswith(f"• {title} "))
    running = next(line for line in listing.text.splitlines() if line.startswith(f"• {other} "))
    assert done.endswith(f"✅ best {score}")
    assert running.endswith("⏳ in progress")
    labels = [row[0].text for row in listing.buttons]
    assert f"✅ {title}" in labels and f"⏳ {other}" in labels


async def reply_to(user: SimUser, chat: ChatView, text: str) -> EmuMessage:
    mark = chat.mark()
    await user.send(text)
    return await chat.next_message(after=mark)


async def test_an_offer_whose_quiz_is_over_loses_its_buttons(harness: Harness) -> None:
    user = harness.emu.user(6005, "Ali", language_code="en")
    chat = await english(user)
    await answer_first_question(user, chat, QUIZ)
    offer = await reply_to(user, chat, "/start")
    assert [row[0].text for row in offer.buttons] == ["▶️ Continue", "✖️ Abandon it"]
    await reply_to(user, chat, "/stop")
    popup = await user.tap(offer, "▶️ Continue")
    assert popup is not None and popup.text == "This quiz is over. /quizzes to start another."
    await chat.wait_for(lambda m: m.message_id == offer.message_id and not m.buttons)
