"""Review and practice rounds through the emulator (issue 14): "k of n" on every card, one message
per card, a summary at the end, "Practise my mistakes now" when nothing is due (its answers leave
the schedule as it was), /stop in the middle, and taps that must change nothing."""

from __future__ import annotations

from pathlib import Path

from bot.content import load_catalog
from bot.emulator.driver import ChatView
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness, answered
from tests.e2e.one_message_kit import lengthen
from tests.e2e.progress_kit import (
    DAY,
    LETTERS,
    QUIZ,
    is_card,
    question_in,
    right_letter,
    rows,
    take_quiz,
)
from tests.e2e.rounds_kit import PRACTISE, answer_card, labels
from tests.reliability.support import bot_at, content_copy, start_quiz

# What a practice round must leave alone: the schedule, the review log, the quiz answers.
SCHEDULE = (
    "SELECT id, quiz_id, question_id, stability, difficulty, due_at, last_seen_at FROM review_items"
)


async def test_practise_now_leaves_the_schedule_as_it_was(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3101, "Awa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={1, 4})
    mark = chat.mark()
    await user.send("/review")
    offer = await chat.next_message(after=mark)
    schedule = rows(harness, SCHEDULE)  # the misses reached the queue
    logged, quiz_answers = harness.review_log_count(), harness.answer_tally()
    assert len(schedule) == 2
    assert "No reviews due" in offer.text
    assert "2 missed questions are not due yet" in offer.text
    assert labels(offer) == [PRACTISE]

    mark = chat.mark()
    await user.tap(offer, PRACTISE)
    first = await chat.next_message(after=mark)
    assert "🎯 Practice · 1 of 2" in first.text and is_card(first)
    assert not chat.message(offer.message_id).buttons  # the offer is taken
    done = await answer_card(user, chat, first, harness, right=True)
    assert "schedule stays as it was" in done.text and labels(done) == ["Next ▶️", "⚠️ Report"]

    mark = chat.mark()
    await user.tap(done, "Next ▶️")
    second = await chat.next_message(after=mark)
    assert "🎯 Practice · 2 of 2" in second.text and is_card(second)
    assert {question_in(first, quiz), question_in(second, quiz)} == {1, 4}
    # A second tap on the same Next shows nothing more.
    mark = chat.mark()
    await user.tap(done, "Next ▶️")
    assert chat.mark().next_message_id == mark.next_message_id

    done = await answer_card(user, chat, second, harness, right=False)
    assert labels(done) == ["🏁 See the summary", "⚠️ Report"]
    mark = chat.mark()
    await user.tap(done, "🏁 See the summary")
    summary = await chat.next_message(after=mark)
    assert "Practice done: 1 of 2 questions right." in summary.text
    assert "Next review: Sep 22, 2026." in summary.text
    assert "schedule stays as it was" in summary.text

    # Not a single change to the schedule, the review log, or the quiz's answers and scores.
    assert rows(harness, SCHEDULE) == schedule
    assert harness.review_log_count() == logged
    assert harness.answer_tally() == quiz_answers
    stale = await user.tap(second, callback_data=labels_data(done))
    assert stale is not None and stale.text is None  # the summary is already shown: silent


def labels_data(message: EmuMessage) -> str:
    data = message.buttons[0][0].callback_data
    assert data is not None
    return data


async def test_a_review_counts_k_of_n_ends_with_a_summary_and_offers_practice(
    harness: Harness,
) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3102, "Bob", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={0, 2, 5})
    harness.clock.advance(DAY)

    mark = chat.mark()
    await user.send("/review")
    right_answers = [True, False, True]
    for k, right in enumerate(right_answers, start=1):
        card = await chat.next_message(after=mark)
        assert f"🔁 Review · {k} of 3" in card.text and is_card(card)
        done = await answer_card(user, chat, card, harness, right=right)
        assert f"🔁 Review · {k} of 3" in done.text  # the header stays on the answered card
        assert "Next review of this question:" in done.text
        mark = chat.mark()
        await user.tap(done, labels(done)[0])
    summary = await chat.next_message(after=mark)
    assert "Review done: 2 of 3 questions right." in summary.text
    assert "Next review: Sep 23, 2026." in summary.text  # the wrong one: Again, tomorrow
    # Everything left is not due: practising it now is offered, for this learner.
    assert "3 missed questions are not due yet" in summary.text
    assert labels(summary) == [PRACTISE]
    assert labels_data(summary) == f"rvp:{user.id}"
    assert harness.review_log_tally() == [(3, 2)]


async def test_stop_ends_a_review_and_its_old_card_changes_nothing(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3103, "Fatou", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={1, 3})
    harness.clock.advance(DAY)
    mark = chat.mark()
    await user.send("/review")
    first = await chat.next_message(after=mark)
    done = await answer_card(user, chat, first, harness, right=True)
    mark = chat.mark()
    await user.tap(done, "Next ▶️")
    second = await chat.next_message(after=mark)
    assert "Review · 2 of 2" in second.text
    schedule = rows(harness, SCHEDULE)

    mark = chat.mark()
    await user.send("/stop")
    stopped = await chat.next_message(after=mark)
    assert stopped.text == (
        "⏹ Review stopped after 1 of 2 questions (1 right). /review to start again."
    )
    await stripped(chat, second)  # the open card's buttons are gone

    popup = await user.tap(second, callback_data=data_of(second, "A"))
    assert popup is not None and popup.text == "This review is over. /review to start a new one."
    popup = await user.tap(done, callback_data=labels_data(done))
    assert popup is not None and popup.text == "This review is over. /review to start a new one."
    assert rows(harness, SCHEDULE) == schedule
    assert harness.review_log_count() == [(1,)]
    # /stop again: no round open, so it is about the quiz (none running either).
    mark = chat.mark()
    await user.send("/stop")
    assert "no quiz running" in (await chat.next_message(after=mark)).text


async def test_stop_during_a_practice_round(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3104, "Moussa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={2})
    mark = chat.mark()
    await user.send("/review")
    offer = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(offer, PRACTISE)
    card = await chat.next_message(after=mark)
    assert "Practice · 1 of 1" in card.text
    mark = chat.mark()
    await user.send("/stop")
    stopped = await chat.next_message(after=mark)
    assert stopped.text.startswith("⏹ Practice stopped after 0 of 1 question (0 right).")
    await stripped(chat, card)
    popup = await user.tap(card, callback_data=data_of(card, "A"))
    assert popup is not None and "over" in (popup.text or "")


async def stripped(chat: ChatView, card: EmuMessage) -> None:
    """Wait until `card` has no buttons. /stop strips the open card before it answers, unless the
    card's own send had not returned yet: then that send strips it, maybe just after."""
    await chat.wait_for(lambda m: m.message_id == card.message_id and not m.buttons)


def data_of(message: EmuMessage, text: str) -> str:
    data = message.button(text).callback_data
    assert data is not None
    return data


async def test_someone_elses_practice_buttons_are_refused(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    owner = harness.emu.user(3105, "Awa", language_code="en")
    intruder = harness.emu.user(3106, "Jean", language_code="fr")
    await take_quiz(owner, owner.private, quiz, miss={0, 1})
    mark = owner.private.mark()
    await owner.send("/review")
    offer = await owner.private.next_message(after=mark)
    mark = owner.private.mark()
    await owner.tap(offer, PRACTISE)
    card = await owner.private.next_message(after=mark)
    progress = "SELECT user_id, mode, total, shown, answered, correct, status FROM review_sessions"
    rounds = rows(harness, progress)
    schedule = rows(harness, SCHEDULE)

    await intruder.send("/start")
    hello = await intruder.private.wait_for(lambda m: bool(m.buttons))
    forged = [labels_data(offer), data_of(card, "A"), data_of(card, "B")]
    for data in forged:  # replayed from the intruder's own chat
        popup = await intruder.tap(hello, callback_data=data)
        assert popup is not None and popup.text == "Ce bouton n’est pas pour vous.", data
    assert rows(harness, progress) == rounds
    assert rows(harness, SCHEDULE) == schedule
    assert not any("Practice" in m.text for m in intruder.private.messages)
    # The owner's round goes on.
    done = await answer_card(owner, owner.private, card, harness, right=True)
    assert "Practice · 1 of 2" in done.text


async def test_the_summary_in_french(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3107, "Aminata", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={3})
    mark = chat.mark()
    await user.send("/language")
    picker = await chat.next_message(after=mark)
    await user.tap(picker, "Français")
    harness.clock.advance(DAY)
    mark = chat.mark()
    await user.send("/review")
    card = await chat.next_message(after=mark)
    assert "🔁 Révision · 1 sur 1" in card.text
    pos = right_letter_fr(card, harness, question_in_fr(card, harness))
    mark = chat.mark()
    await user.tap(card, LETTERS[pos])
    done = await answered(chat, card, mark)
    mark = chat.mark()
    await user.tap(done, labels(done)[0])
    summary = await chat.next_message(after=mark)
    assert "Révision terminée\u00a0: 1 sur 1 question réussie." in summary.text
    assert "Prochaine révision\u00a0: 24 sept. 2026."  # FSRS: Good, 2 days in summary.text


def question_in_fr(message: EmuMessage, h: Harness) -> int:
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    found = [
        i
        for i, q in enumerate(quiz.questions)
        if q.prompt.get("fr").replace("`", "") in message.text
    ]
    assert len(found) == 1, message.text
    return found[0]


def right_letter_fr(message: EmuMessage, h: Harness, index: int) -> int:
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    q = quiz.questions[index]
    right = q.options[q.correct].text.get("fr").replace("`", "")
    lines = [line for line in message.text.splitlines() if line[1:2] == "."]
    for pos, line in enumerate(lines):
        if line[3:].strip() == right:
            return pos
    raise AssertionError(f"{right!r} not in {message.text}")


async def test_stop_ends_the_review_first_then_the_quiz(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3108, "Ibou", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={0})
    harness.clock.advance(DAY)
    mark = chat.mark()
    await user.send(f"/start {QUIZ}")
    question = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(question, LETTERS[right_letter(question, quiz, 0)])
    await answered(chat, question, mark)  # a quiz answered in part, still running
    mark = chat.mark()
    await user.send("/review")
    card = await chat.next_message(after=mark)
    assert "Review · 1 of 1" in card.text

    mark = chat.mark()
    await user.send("/stop")
    stopped = await chat.next_message(after=mark)
    assert stopped.text.startswith("⏹ Review stopped after 0 of 1 question (0 right).")
    assert "Your quiz is still running" in stopped.text
    assert harness.last_attempt_status() == [("active",)]
    mark = chat.mark()
    await user.send("/stop")
    assert "Quiz abandoned" in (await chat.next_message(after=mark)).text
    assert harness.last_attempt_status() == [("abandoned",)]


async def test_a_round_survives_a_restart(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3109, "Awa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={1, 2})
    harness.clock.advance(DAY)
    mark = chat.mark()
    await user.send("/review")
    first = await chat.next_message(after=mark)
    done = await answer_card(user, chat, first, harness, right=False)
    await harness.restart_bot()
    mark = chat.mark()
    await user.tap(done, "Next ▶️")
    second = await chat.next_message(after=mark)
    assert "🔁 Review · 2 of 2" in second.text and is_card(second)
    done = await answer_card(user, chat, second, harness, right=True)
    mark = chat.mark()
    await user.tap(done, "🏁 See the summary")
    summary = await chat.next_message(after=mark)
    assert "Review done: 1 of 2 questions right." in summary.text


async def test_a_long_explanation_follows_its_card_and_stop_finds_its_buttons(
    tmp_path: Path,
) -> None:
    catalog = load_catalog(content_copy(tmp_path / "content", questions=2, edit=lengthen))
    async with bot_at(tmp_path, catalog=catalog) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        user = h.emu.user(3110, "Awa", language_code="en")
        chat = user.private
        question = await start_quiz(user, QUIZ, total=2)
        for index in range(2):  # both missed
            mark = chat.mark()
            await user.tap(question, LETTERS[(right_letter(question, quiz, index) + 1) % 4])
            if index == 0:
                way_on = await chat.next_message(after=mark)  # too long to join its question
            else:
                way_on = await answered(chat, question, mark)
            mark = chat.mark()
            await user.tap(way_on, way_on.buttons[0][0].text)
            question = await chat.next_message(after=mark)
        mark = chat.mark()
        await user.send("/review")
        offer = await chat.next_message(after=mark)
        mark = chat.mark()
        await user.tap(offer, PRACTISE)
        card = await chat.next_message(after=mark)
        if question_in(card, quiz) != 0:  # the long one is the second: get to it
            done = await answer_card(user, chat, card, h, right=True)
            mark = chat.mark()
            await user.tap(done, "Next ▶️")
            card = await chat.next_message(after=mark)
        assert question_in(card, quiz) == 0 and "Practice ·" in card.text
        mark = chat.mark()
        await user.tap(card, LETTERS[right_letter(card, quiz, 0)])
        why = await chat.next_message(after=mark)
        assert why.text.rstrip().count("A long why.") == 300  # in full, not cut
        assert labels(why)[0] in ("Next ▶️", "🏁 See the summary")
        assert not chat.message(card.message_id).buttons
        mark = chat.mark()
        await user.send("/stop")
        assert "Practice stopped" in (await chat.next_message(after=mark)).text
        await stripped(chat, why)  # the open card's way on is gone


async def test_stop_while_the_card_is_on_its_way_still_takes_its_buttons(
    harness: Harness,
) -> None:
    """The learner sees a card before the bot hears that it was sent (Telegram answers the
    sendMessage later) and may /stop at once: the card must lose its buttons all the same,
    whether the /stop waits for the card's update (one chat's updates in order) or is handled
    first (then the card's own send strips it once it returns)."""
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3111, "Fatou", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={1, 3})
    harness.clock.advance(DAY)
    mark = chat.mark()
    await user.send("/review")
    first = await chat.next_message(after=mark)
    done = await answer_card(user, chat, first, harness, right=True)

    held = harness.emu.faults.add("sendMessage", "hold", chat_id=user.id)
    mark = chat.mark()
    await user.tap(done, "Next ▶️")
    second = await chat.next_message(after=mark)  # in the chat; the bot not told yet
    assert "Review · 2 of 2" in second.text and second.buttons
    mark = chat.mark()
    await user.send("/stop")
    held.release()
    stopped = await chat.next_message(after=mark)
    assert stopped.text.startswith("⏹ Review stopped after 1 of 2 questions")
    await stripped(chat, second)
    popup = await user.tap(second, callback_data=data_of(second, "A"))
    assert popup is not None and popup.text == "This review is over. /review to start a new one."
