"""Resume after a restart, stale and repeated taps, forged data, deep links, /stop."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.emulator import EmuMessage, SimUser
from tests.e2e.harness import Harness, answer_current, answered
from tests.e2e.reads import Rows
from tests.reliability.support import shipped_length

N = shipped_length("gradient-checkpointing")  # both shipped quizzes have the same length


def count(h: Harness, read: Callable[[], Rows] | None = None) -> int:
    """A count the store holds: of answers, unless `read` names another."""
    return int((read or h.answer_count)()[0][0])


async def start_by_link(user: SimUser, quiz_id: str = "gradient-checkpointing") -> EmuMessage:
    await user.send(f"/start {quiz_id}")
    return await user.private.wait_for(lambda m: f"1/{N}" in m.text)


async def test_deep_link_starts_the_quiz(harness: Harness) -> None:
    user = harness.emu.user(3001, "Moussa", language_code="wo")
    question = await start_by_link(user)
    quiz = harness.catalog.quiz("gradient-checkpointing")
    assert quiz is not None
    assert quiz.questions[0].prompt.get("wo").replace("`", "") in question.text
    assert [b.text for b in question.buttons[0]] == ["A", "B", "C", "D"]


async def test_unknown_deep_link_lists_quizzes(harness: Harness) -> None:
    user = harness.emu.user(3002, "Claire", language_code="fr")
    await user.send("/start no-such-quiz")
    listing = await user.private.wait_for(lambda m: bool(m.buttons))
    assert "Gradient" in listing.text and count(harness, harness.attempt_count) == 0


@pytest.mark.both_transports
async def test_repeated_and_stale_taps_change_nothing(harness: Harness) -> None:
    user = harness.emu.user(3003, "Ada")
    q1 = await start_by_link(user)
    first = await user.tap(q1, callback_data=q1.buttons[0][0].callback_data)
    assert first.text.startswith(("✅", "❌"))
    # The buttons are gone from the chat, but a slow client can still send the old data.
    again = await user.tap(q1, callback_data=q1.buttons[0][1].callback_data)
    assert "already answered" in again.text
    assert count(harness) == 1
    # Move on, then tap question 1's data once more: closed, nothing stored.
    explanation = await user.private.wait_for(
        lambda m: "▶" in "".join(b.text for row in m.buttons for b in row)
    )
    await user.tap(explanation, explanation.buttons[0][0].text)
    await user.private.wait_for(lambda m: f"2/{N}" in m.text)
    stale = await user.tap(q1, callback_data=q1.buttons[0][2].callback_data)
    assert "already answered" in stale.text or "closed" in stale.text
    assert count(harness) == 1


async def test_forged_and_foreign_callbacks_are_refused(harness: Harness) -> None:
    owner = harness.emu.user(3004, "Owner")
    intruder = harness.emu.user(3005, "Intruder")
    q1 = await start_by_link(owner)
    await intruder.send("/help")
    await intruder.private.wait_for(lambda m: "/quizzes" in m.text)
    data = q1.buttons[0][0].callback_data
    # The intruder replays the owner's button data from their own chat.
    forged = await intruder.tap(q1, callback_data=data)
    assert "closed" in forged.text
    for junk in [
        "ans:1:0:99",
        "ans:999999:0:0",
        "ans:x",
        "💥",
        "set:1:lang:fr",
        "g:1:0:0",
        "go:../../etc",
        "lang:zz",
        "next:1:99",
    ]:
        reply = await owner.tap(q1, callback_data=junk)
        assert reply.text, junk
    assert count(harness) == 0


async def test_resume_after_restart(harness: Harness) -> None:
    user = harness.emu.user(3006, "Fatou", language_code="fr")
    await user.send("/start")
    picker = await user.private.wait_for(lambda m: bool(m.buttons))
    await user.tap(picker, text="✓ Français")
    q1 = await start_by_link(user)
    await user.tap(q1, "B")
    await harness.restart_bot()
    assert count(harness) == 1

    mark = user.private.mark()
    await user.send("/start")
    offer = await user.private.next_message(after=mark)
    assert "2" in offer.text and len(offer.buttons) == 2
    mark = user.private.mark()
    await user.tap(offer, offer.buttons[0][0].text)
    q2 = await user.private.next_message(after=mark)
    assert f"2/{N}" in q2.text
    # Same option order as before the restart: the orders are stored with the attempt.
    ((orders,),) = harness.rows("SELECT option_orders FROM attempts")
    quiz = harness.catalog.quiz("gradient-checkpointing")
    assert quiz is not None
    import json

    order = json.loads(orders)[1]
    first_shown = quiz.questions[1].options[order[0]].text.get("fr").replace("`", "")
    assert f"A. {first_shown}" in q2.text
    answer = await user.tap(q2, "A")
    assert answer.text.startswith(("✅", "❌"))
    assert count(harness) == 2


async def test_stop_abandons_and_old_buttons_close(harness: Harness) -> None:
    user = harness.emu.user(3007, "Ibou")
    q1 = await start_by_link(user)
    await user.send("/stop")
    await user.private.wait_for(lambda m: "abandoned" in m.text.lower())
    closed = await user.tap(q1, "A")
    assert "closed" in closed.text
    assert count(harness) == 0
    assert harness.attempt_statuses() == [("abandoned",)]


async def test_review_of_mistakes_and_retake(harness: Harness) -> None:
    user = harness.emu.user(3008, "Lamine")
    chat = user.private
    question = await start_by_link(user, "gradient-accumulation")
    for index in range(N):
        explanation = await answer_current(user, question, typed="1")  # "A", or a typed 1
        mark = chat.mark()
        await user.tap(explanation, explanation.buttons[0][0].text)
        question = await chat.next_message(after=mark)
        if index < N - 1:
            assert f"{index + 2}/{N}" in question.text
    result = question
    assert f"/{N}" in result.text
    labels = [b.text for row in result.buttons for b in row]
    review = next(label for label in labels if "🔎" in label)
    mark = chat.mark()
    await user.tap(result, review)
    mistakes = await chat.next_message(after=mark)
    assert mistakes.text.count("\n\n") >= 2
    mark = chat.mark()
    await user.tap(result, next(label for label in labels if "🔁" in label))
    again = await chat.next_message(after=mark)
    assert f"1/{N}" in again.text


async def test_plain_text_gets_a_hint(harness: Harness) -> None:
    user = harness.emu.user(3009, "Sokhna")
    await user.send("hello <b>")
    hint = await user.private.wait_for(lambda m: "/help" in m.text)
    assert hint.from_bot


@pytest.mark.parametrize(("lang", "words"), [("en", "reply /upload to it"),
                                              ("fr", "répondez /upload")])  # fmt: skip
async def test_a_file_sent_privately_without_upload_gets_a_hint(
    harness: Harness, lang: str, words: str
) -> None:
    """A quiz file (or any file) sent privately without /upload as its caption got no answer
    at all: it is told how to upload it, and nothing is downloaded or kept."""
    user = harness.emu.user(3010, "Awa", language_code=lang)
    for caption in ("", "my quiz for the group"):
        mark = user.private.mark()
        await user.send_document("quiz.gift", b"::q:: 2 + 2? {=4 ~5}", caption=caption)
        hint = await user.private.next_message(after=mark)
        assert words in hint.text and "/help" in hint.text
    assert harness.emu.calls("getFile") == [] and harness.upload_count() == [(0,)]


async def test_a_double_tap_on_next_shows_the_question_once(harness: Harness) -> None:
    user = harness.emu.user(3010, "Binta")
    q1 = await start_by_link(user)
    mark = user.private.mark()
    await user.tap(q1, "A")
    explanation = await answered(user.private, q1, mark)
    data = explanation.buttons[0][0].callback_data
    first = await user.tap(explanation, callback_data=data)
    second = await user.tap(explanation, callback_data=data)
    assert first is not None and second is not None
    await user.private.wait_for(lambda m: f"2/{N}" in m.text)
    await user.send("/help")  # a marker: everything sent before it has arrived
    await user.private.wait_for(lambda m: "/quizzes" in m.text)
    shown = [m for m in user.private.bot_messages if f"2/{N}" in m.text]
    assert len(shown) == 1


@pytest.mark.parametrize("kind", ["sticker", "photo", "voice", "location", "contact"])
async def test_a_sticker_photo_or_voice_note_sent_privately_gets_a_hint(
    harness: Harness, kind: str
) -> None:
    """What is neither text nor a file got no answer at all: it is told what the bot reads."""
    user = harness.emu.user(3011, "Awa", language_code="fr")
    mark = user.private.mark()
    await user.send_attachment(kind)
    hint = await user.private.next_message(after=mark)
    assert "/help" in hint.text and "commandes" in hint.text


async def test_a_link_with_the_quiz_in_capitals_starts_it(harness: Harness) -> None:
    """`?start=GRADIENT-CHECKPOINTING` (a link retyped by hand) answered "I don't know that
    quiz" with the whole list; a group's link found the quiz."""
    user = harness.emu.user(3012, "Awa", language_code="fr")
    await start_by_link(user, "GRADIENT-CHECKPOINTING")


async def test_a_misspelt_link_names_the_closest_quiz_in_the_learners_language(
    harness: Harness,
) -> None:
    user = harness.emu.user(3013, "Moussa", language_code="fr")
    mark = user.private.mark()
    await user.send("/start gradient-chekpointing")
    reply = await user.private.next_message(after=mark)
    quiz = harness.catalog.quiz("gradient-checkpointing")
    assert quiz is not None
    title = quiz.title.get("fr")
    assert f"Vouliez-vous dire {title}\u202f?" in reply.text, reply.text
    assert title in [b.text for row in reply.buttons for b in row]  # the list, to tap it
