"""/practice through the emulator: the chooser edits itself in place, a set draws from every
matching quiz, answers are explained, misses join the review queue, and the next set repeats
nothing until every matching question was seen."""

from __future__ import annotations

import json

from bot.core.kinds import ONE_TAP
from tests.e2e.harness import Harness
from tests.e2e.practice_kit import play_set


def rows(h: Harness, sql: str, *args: object) -> list[tuple]:  # type: ignore[type-arg]
    return h.rows(sql, *args)


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
    assert h.queued_count(3001) == [(2,)]

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
