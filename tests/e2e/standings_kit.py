"""Standings for end-to-end tests: play a group run with chosen answers. Shared by the standings
and name tests, so no test imports another."""

from __future__ import annotations

from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.groups_kit import (
    LETTERS,
    QUIZ,
    GroupHarness,
    right_position,
)


async def play(
    h: GroupHarness, group: ChatView, admin: SimUser, plan: list[tuple[SimUser, list[bool]]]
) -> EmuMessage:
    """Push the 2-question quiz; each member answers right or wrong, in plan order (the clock
    moves 1 s before each tap). Returns the results message."""
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    mark = group.mark()
    await admin.send(f"/push {QUIZ}", chat=group)
    for index in range(2):
        question = await group.wait_for(
            lambda m, i=index: f"Question {i + 1}/2" in m.text and bool(m.buttons), after=mark
        )
        right = right_position(question, quiz, index)
        for member, answers in plan:
            h.clock.advance(1)
            pos = right if answers[index] else (right + 1) % 4
            await member.tap(question, LETTERS[pos])
    return await group.wait_for(lambda m: "finished" in m.text, timeout=8, after=mark)
