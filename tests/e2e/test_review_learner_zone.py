"""Review due days fall on the learner's own calendar (/timezone), not the bot's (issue 14):
a learner in Auckland who misses a question gets it back when *their* next day begins, and every
date the review shows (nothing due, the answered card, the summary) is a day in their zone.

The harness's clock starts at 2026-09-21 13:33 UTC, which is already 01:33 on Sep 22 in
Auckland (UTC+12): the bot's default zone (UTC) would make the miss due 10.5 hours later, in the
middle of the learner's Sep 22."""

from __future__ import annotations

from tests.e2e.harness import Harness
from tests.e2e.progress_kit import QUIZ, review_once, take_quiz
from tests.e2e.rounds_kit import labels

HOUR = 3600.0
PRACTISE = "🎯 Practise my mistakes now"


async def test_a_miss_falls_due_on_the_learners_own_next_day(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3301, "Aroha", language_code="en")
    chat = user.private
    await user.send("/start")
    picker = await chat.wait_for(lambda m: bool(m.buttons))
    await user.tap(picker, "✓ English")
    mark = chat.mark()
    await user.send("/timezone Pacific/Auckland")
    assert "Pacific/Auckland" in (await chat.next_message(after=mark)).text
    await take_quiz(user, chat, quiz, miss={0}, first=False)

    mark = chat.mark()
    await user.send("/review")
    shown = await chat.next_message(after=mark)
    assert "No reviews due. The next one is on Sep 23, 2026." in shown.text

    # 01:33 UTC on Sep 22: a new day in UTC, still Sep 22 (13:33) in Auckland: not due yet,
    # so it is one to practise now.
    harness.clock.advance(12 * HOUR)
    mark = chat.mark()
    await user.send("/review")
    shown = await chat.next_message(after=mark)
    assert "No reviews due. The next one is on Sep 23, 2026." in shown.text
    assert "1 missed question is not due yet" in shown.text
    assert labels(shown) == [PRACTISE]

    # 12:33 UTC: 00:33 on Sep 23 in Auckland: due. Right: FSRS's Good, back in 2 of *their* days.
    harness.clock.advance(11 * HOUR)
    await user.send("/review")
    await review_once(user, chat, quiz)
    card = await chat.wait_for(lambda m: "Next review of this question" in m.text)
    assert "Next review of this question: Sep 25, 2026." in card.text
    summary = await chat.wait_for(lambda m: "Review done" in m.text)
    assert "Next review: Sep 25, 2026." in summary.text


async def test_without_a_zone_of_their_own_the_bots_default_is_used(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3302, "Ana", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={0})
    mark = chat.mark()
    await user.send("/review")
    shown = await chat.next_message(after=mark)
    assert "No reviews due. The next one is on Sep 22, 2026." in shown.text
    harness.clock.advance(11 * HOUR)  # 00:33 UTC on Sep 22
    mark = chat.mark()
    await user.send("/review")
    assert "Review · 1 of 1" in (await chat.next_message(after=mark)).text
