"""/practice through the emulator: the chooser edits itself in place, a set draws from every
matching quiz, answers are explained, misses join the review queue, and the next set repeats
nothing until every matching question was seen."""

from __future__ import annotations

import json

from bot.core.kinds import ONE_TAP
from bot.core.models import Question, Quiz
from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness

LETTERS = "ABCD"


def rows(h: Harness, sql: str, *args: object) -> list[tuple]:  # type: ignore[type-arg]
    return h.rows(sql, *args)


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


async def test_practice_sets_without_repeats_and_misses_to_review(harness: Harness) -> None:
    h = harness
    user = h.emu.user(3001, "Awa", language_code="en")
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
    mark = chat.mark()
    await user.send("/practice")
    chooser = await chat.next_message(after=mark)
    assert "Practice" in chooser.text
    guide = next(iter(h.catalog.guides.values()))
    await user.tap(chooser, guide.title.get("en"))
    chooser = await chat.wait_for(
        lambda m: (
            m.message_id == chooser.message_id
            and f"✓ {guide.title.get('en')}" in [b.text for row in m.buttons for b in row]
        )
    )
    await user.tap(chooser, "5 questions")
    chooser = await chat.wait_for(
        lambda m: (
            m.message_id == chooser.message_id
            and "✓ 5 questions" in [b.text for row in m.buttons for b in row]
        )
    )

    done = await play_set(h, user, chooser, miss={0, 3})
    assert "Practice done: 3/5" in done.text
    assert "2 missed questions join your review queue" in done.text
    assert rows(h, "SELECT count(*) FROM review_items WHERE user_id = 3001") == [(2,)]

    done = await play_set(h, user, chooser, miss=set())
    assert "Practice done: 5/5" in done.text
    sets = [json.loads(q) for (q,) in rows(h, "SELECT questions FROM practice_sets ORDER BY id")]
    pool = {  # practice sets ask the kinds one tap answers (kinds.ONE_TAP)
        q.id
        for quiz in h.catalog
        if quiz.guide.id == guide.id
        for q in quiz.questions
        if q.kind in ONE_TAP
    }
    assert all(key.split("/")[1] in pool for s in sets for key in s)  # the chosen guide only
    # the second set repeats nothing from the first while unseen questions remain
    unseen_left = len(pool) - 5
    assert len(set(sets[0]) & set(sets[1])) == max(0, 5 - unseen_left)

    # someone else's forged tap on this set changes nothing
    other = h.emu.user(3002, "Modou", language_code="en")
    await other.send("/start")
    picker = await other.private.wait_for(lambda m: bool(m.buttons))
    ((set_id,),) = rows(h, "SELECT max(id) FROM practice_sets")
    forged = await other.tap(picker, callback_data=f"pa:{set_id}:0:0")
    assert forged is not None and forged.text == "This question was already answered."
