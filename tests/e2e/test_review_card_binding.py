"""A round's card takes only its own answer (issue 25, item 3), through the emulator.

A review card's buttons name the queue item they answer (`rva:<round>:<k>:<item>:…`); the item
is the learner's to forge. Another of their own due items in place of the card's was judged with
the card's option order, and moved that other question in the schedule. Every kind of card is
bound to the question its round showed: a tap, a select-all card's toggles and Submit, a number
card (whose answer is typed, so a forged tap is the only way to name an item), and a practice
round's card (whose buttons carry no item at all)."""

from __future__ import annotations

from bot.core.kinds import QuestionKind
from bot.core.models import Question
from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.harness import (
    Harness,
    answer_as,
    answer_current,
    answered,
    is_select_all,
    submit_label,
    toggle_label,
    typed_for,
)
from tests.e2e.progress_kit import DAY, QUIZ, take_quiz

NOT_YOURS = "This button is not for you."
SCHEDULE = "SELECT id, question_id, stability, due_at, last_seen_at FROM review_items ORDER BY id"
# Missed in the first take: one card of each kind (single, select-all, number).
KINDS = {"purpose": QuestionKind.SINGLE, "accumulation-facts": QuestionKind.MULTIPLE}
NUMBER = "effective-batch-gpus"
OTHER = "effective-batch"  # missed later (a second take): due, and the round's last card


def shown_question(h: Harness, card: EmuMessage) -> Question:
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    found = [q for q in quiz.questions if q.prompt.get("en").replace("`", "") in card.text]
    assert len(found) == 1, card.text
    return found[0]


def forged(data: str | None, item: int) -> str:
    """A button's data with another queue item in place of the card's."""
    assert data is not None
    kind, round_id, index, _, *rest = data.split(":")
    return ":".join([kind, round_id, index, str(item), *rest])


def item_of(h: Harness, user: SimUser, question_id: str) -> int:
    ((item,),) = h.rows(
        "SELECT id FROM review_items WHERE user_id = ? AND question_id = ?", user.id, question_id
    )
    return int(item)


async def miss_one_of_each_kind(h: Harness, user: SimUser) -> None:
    """Miss a single, a select-all and a number question, then (a minute later, so its queue
    item comes last) one more single question."""
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    ids = [q.id for q in quiz.questions]
    await take_quiz(user, user.private, quiz, miss={ids.index(k) for k in [*KINDS, NUMBER]})
    h.clock.advance(60)
    await take_quiz(user, user.private, quiz, miss={ids.index(OTHER)}, first=False)


async def test_a_review_card_takes_no_other_due_item_of_its_learner(harness: Harness) -> None:
    h = harness
    user = h.emu.user(3201, "Awa", language_code="en")
    chat = user.private
    await miss_one_of_each_kind(h, user)
    h.clock.advance(DAY)
    mark = chat.mark()
    await user.send("/review")
    card = await chat.next_message(after=mark)
    other = item_of(h, user, OTHER)  # due, and not the card's: the forged item
    seen = []
    for _ in range(3):
        question = shown_question(h, card)
        seen.append(question.id)
        schedule, logged = h.rows(SCHEDULE), h.review_log_count()
        if is_select_all(card):
            toggle = card.button(toggle_label(card, "A")).callback_data
            popup = await user.tap(card, callback_data=forged(toggle, other))
            assert popup is not None and popup.text == NOT_YOURS
            assert h.pending_selection_count() == [(0,)]
            await user.tap(card, toggle_label(card, "A"))  # the card's own toggle: kept
            submit = card.button(submit_label(card) or "").callback_data
            popup = await user.tap(card, callback_data=forged(submit, other))
            assert popup is not None and popup.text == NOT_YOURS
            assert h.pending_selection_count() == [(1,)]
        elif card.buttons:
            tap = card.button("A").callback_data
            popup = await user.tap(card, callback_data=forged(tap, other))
            assert popup is not None and popup.text == NOT_YOURS
        else:  # a number card has no buttons: a forged tap names the round, card and item
            ((round_id, index),) = h.rows(
                "SELECT id, answered FROM review_sessions WHERE status = 'open'"
            )
            popup = await user.tap(card, callback_data=f"rva:{round_id}:{index}:{other}:0123:0")
            assert popup is not None and popup.text == NOT_YOURS
        assert h.rows(SCHEDULE) == schedule  # neither the card's question nor the other moved
        assert h.review_log_count() == logged

        # The card's own answer still counts, as the card's question.
        if is_select_all(card):
            mark = chat.mark()
            popup = await user.tap(card, submit_label(card) or "")
            assert popup is not None and (popup.text or "")[0] in "✅🟡❌"
            done = await answered(chat, card, mark)
        elif card.buttons:
            mark = chat.mark()
            await answer_as(user, card, question, right=True)
            done = await answered(chat, card, mark)
        else:
            done = await answer_current(user, card, typed=typed_for(question))
        mark = chat.mark()
        await user.tap(done, done.buttons[0][0].text)  # Next ▶️
        card = await chat.next_message(after=mark)
    assert sorted(seen) == sorted([*KINDS, NUMBER])
    logged = h.rows("SELECT question_id FROM review_log")
    assert sorted(q for (q,) in logged) == sorted(seen)  # each moved its own card's question
    # The forged item was never answered: it is still due, and the round's last card.
    assert shown_question(h, card).id == OTHER and "Review · 4 of 4" in card.text
    mark = chat.mark()
    popup = await answer_as(user, card, shown_question(h, card), right=True)
    assert popup is not None and (popup.text or "").startswith("✅")


async def test_a_practice_card_takes_only_its_own_buttons(harness: Harness) -> None:
    """A practice card's buttons name no item (0): one naming a queue item is forged, refused,
    and changes nothing; the card's own tap answers it."""
    h = harness
    user = h.emu.user(3202, "Bob", language_code="en")
    chat = user.private
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    ids = [q.id for q in quiz.questions]
    await take_quiz(user, chat, quiz, miss={ids.index("purpose"), ids.index(OTHER)})
    mark = chat.mark()
    await user.send("/review")  # nothing due yet: the offer to practise now
    offer = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(offer, "🎯 Practise my mistakes now")
    card = await chat.next_message(after=mark)
    assert "Practice · 1 of 2" in card.text
    progress = "SELECT answered, correct, status FROM review_sessions"
    before = h.rows(progress)
    for question_id in ("purpose", OTHER):
        item = item_of(h, user, question_id)
        popup = await user.tap(card, callback_data=forged(card.button("A").callback_data, item))
        assert popup is not None and popup.text == NOT_YOURS
    assert h.rows(progress) == before
    mark = chat.mark()
    popup = await answer_as(user, card, shown_question(h, card), right=True)
    assert popup is not None and (popup.text or "").startswith("✅")
    await answered(chat, card, mark)
    assert h.rows(progress) == [(1, 1, "open")]
