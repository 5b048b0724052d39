"""An exam that ran out of time ended when its clock ran out, not when the bot noticed: its
finish and its activity (the streak's day) are the deadline's, also when the bot was down then
and ended it at start-up the next day, or when the learner's next tap came a day later."""

from __future__ import annotations

from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.exam_kit import exam_answer, exam_length, exam_started
from tests.e2e.harness import Harness
from tests.e2e.practice_kit import LETTERS, right_letter

DAY = 86_400.0


def times(h: Harness) -> tuple[float, float, float]:
    """The exam's start, finish and activity (shown_at: the streak reads it)."""
    ((begun, finished, active),) = h.rows(
        "SELECT started_at, finished_at, shown_at FROM practice_sets"
    )
    return float(begun), float(finished), float(active)


async def first_answered(h: Harness, user: SimUser) -> EmuMessage:
    await user.send("/start")
    await user.tap(await user.private.wait_for(lambda m: bool(m.buttons)), "✓ English")
    shown = await exam_started(user, "5 min in all")
    h.clock.advance(10)
    return await exam_answer(h, user, shown, right=True)


async def test_ended_at_start_up_the_next_day_it_counts_at_its_deadline(harness: Harness) -> None:
    h = harness
    user = h.emu.user(4005, "Awa", language_code="en")
    await first_answered(h, user)
    await h.stop_bot()
    h.clock.advance(DAY)  # down all night: the timer fires at start-up, a day late
    mark = user.private.mark()
    await h.start_bot()
    await user.private.wait_for(lambda m: "Exam finished" in m.text, after=mark)
    assert h.practice_set_marks() == [("finished", "r" + "t" * (exam_length(h) - 1))]
    begun, finished, active = times(h)
    assert finished == active == begun + 300, (begun, finished, active)


async def test_ended_by_a_tap_the_next_day_it_counts_at_its_deadline(harness: Harness) -> None:
    h = harness
    user = h.emu.user(4006, "Bintou", language_code="en")
    second = await first_answered(h, user)
    h.clock.advance(DAY)  # the clock only: the tap the next day is what finds the time over
    mark = user.private.mark()
    popup = await user.tap(second, LETTERS[right_letter(h, second)])
    assert popup is not None and popup.text == "⏰ Time was up: this one counts as missed."
    await user.private.wait_for(lambda m: "Exam finished" in m.text, after=mark)
    begun, finished, active = times(h)
    assert finished == active == begun + 300, (begun, finished, active)
