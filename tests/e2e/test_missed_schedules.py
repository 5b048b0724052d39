"""A schedule that came due while the one-process bot was down plays late, once, when it is back
within an hour (bot/tg/wire/missed_dailies.py); later than that it waits for its next time.
Run on the fake clock (`clock_timers`), stopping and starting the bot as a deploy would."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.groups_kit import group_bot, make_group

# The harness's clock starts on Monday 2026-09-21 at 14:13:20 UTC; the group's zone is UTC.
AT = "14:30"
MINUTE = 60.0
TO_AT = 16 * MINUTE + 40  # from the clock's start to 14:30


def questions_posted(group: object) -> int:
    return sum("Question 1/1" in m.text for m in group.bot_messages)  # type: ignore[attr-defined]


async def test_a_schedule_missed_during_a_restart_plays_once_when_the_bot_is_back(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, questions=1, clock_timers=True) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send(f"/schedule next daily {AT}", chat=group)
        await group.next_message(after=mark)
        await h.stop_bot()
        h.clock.advance(TO_AT + 8 * MINUTE)  # down from before 14:30 to 14:38
        mark = group.mark()
        await h.start_bot()
        await group.wait_for(lambda m: "Question 1/1" in m.text, after=mark, timeout=5)
        assert questions_posted(group) == 1
        assert h.timers is not None
        [(due, name)] = h.timers.pending("sched")
        assert name == "sched:1" and due == h.clock() - (TO_AT + 8 * MINUTE) + TO_AT + 86400
        # It played: a restart now does not play it again.
        await h.restart_bot()
        await h.advance(5 * MINUTE)
        assert questions_posted(group) == 1


async def test_a_schedule_missed_by_more_than_an_hour_waits_for_its_next_time(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, questions=1, clock_timers=True) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send(f"/schedule next daily {AT}", chat=group)
        await group.next_message(after=mark)
        await h.stop_bot()
        h.clock.advance(TO_AT + 61 * MINUTE)
        await h.start_bot()
        await h.advance(MINUTE)
        assert questions_posted(group) == 0
        await h.advance(24 * 60 * MINUTE)  # the next day at 14:30
        await group.wait_for(lambda m: "Question 1/1" in m.text, timeout=5)
        assert questions_posted(group) == 1


async def test_a_schedule_that_played_before_a_restart_is_not_played_again(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, questions=1, clock_timers=True) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send(f"/schedule next daily {AT}", chat=group)
        await group.next_message(after=mark)
        await h.advance(TO_AT + MINUTE)
        await group.wait_for(lambda m: "Question 1/1" in m.text, timeout=5)
        await h.stop_bot()
        h.clock.advance(5 * MINUTE)
        await h.start_bot()
        await h.advance(MINUTE)
        assert questions_posted(group) == 1
