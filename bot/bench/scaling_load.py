"""The load of `quizbot bench scaling`, played through the emulator as Telegram's users would:
a group burst (every member taps question 1 of a run, `concurrency` taps in flight) and private
learners answering question after question. Each returns its rate and what it answered; the
caller reads the CPU around it (bot/bench/scaling.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable

from bot.emulator import Emulator
from bot.emulator.driver import SimUser, TapTimeout
from bot.emulator.state import EmuMessage

QUIZ = "gradient-accumulation"
LETTERS = "ABCD"


def _letter(message: EmuMessage) -> str:
    """One of the question's own letters (a true/false question has only A and B)."""
    return random.choice([b.text for row in message.buttons for b in row if b.text in LETTERS])


def _has_buttons(message: EmuMessage) -> bool:
    return bool(message.buttons)


def _button(message: EmuMessage, text: str) -> str | None:
    return next((b.text for row in message.buttons for b in row if text in b.text), None)


async def _tap(user: SimUser, message: EmuMessage, text: str) -> bool:
    try:
        await user.tap(message, text, timeout=30)
    except TapTimeout:
        return False
    return True


async def burst(
    emu: Emulator,
    members: int,
    concurrency: int,
    before_taps: Callable[[], Awaitable[object]] | None = None,
) -> tuple[float, list[float]]:
    admin = emu.user(7000, "Admin", language_code="en")
    group = emu.group(-100777, "Bench group")
    group.add_member(admin, "creator")
    users = [emu.user(8000 + i, f"M{i}", language_code="en") for i in range(members)]
    for u in users:
        group.add_member(u, "member")
    await emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text, timeout=60)
    await admin.send(f"/push {QUIZ}", chat=group)
    question = await group.wait_for(lambda m: "Question 1/" in m.text, timeout=60)
    if before_taps is not None:  # --profile: count the taps' statements, not the set-up's
        await before_taps()
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def one(user: SimUser) -> None:
        async with gate:
            t0 = time.perf_counter()
            if await _tap(user, question, _letter(question)):
                latencies.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    await asyncio.gather(*(one(u) for u in users))
    return len(latencies) / (time.perf_counter() - t0), latencies


async def private(emu: Emulator, learners: int, seconds: float) -> tuple[float, int]:
    answered = 0
    end = time.perf_counter() + seconds

    async def learner(i: int) -> None:
        nonlocal answered
        user = emu.user(9000 + i, f"L{i}", language_code="en")
        mark = user.private.mark()
        await user.send(f"/start {QUIZ}")
        while time.perf_counter() < end:
            # The next screen: a new question, or the answered question edited to carry Next.
            screen = await user.private.wait_for(_has_buttons, after=mark, timeout=60)
            mark = user.private.mark()
            if _button(screen, "A") == "A":
                answered += await _tap(user, screen, _letter(screen))
            elif (label := _button(screen, "Next")) is not None:
                await _tap(user, screen, label)
            else:  # the result: start again
                await user.send(f"/start {QUIZ}")

    t0 = time.perf_counter()
    with contextlib.suppress(TimeoutError):
        await asyncio.gather(*(learner(i) for i in range(learners)))
    return answered / (time.perf_counter() - t0), answered
