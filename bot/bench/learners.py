"""The private load: simulated learners taking whole quizzes through the emulator, timed by it.

A learner sends `/start <quiz>`, then taps: a random answer on a question, "Next" on an
explanation, until the quiz's last "Next"; then starts another quiz. Quizbot and the baseline are
driven by exactly this code. Latencies are taken from the emulator's request hook, so they end
when the bot's request reached the emulator, not when this loop got round to looking.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.emulator import Emulator, SimUser
from bot.emulator.state import EmuMessage

LANGUAGES = ("en", "fr", "wo")
WAIT = 30.0  # a learner gives up on a screen after this long (counted as an error)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


@dataclass
class Window:
    """The measured interval; taps outside it are driven but not counted."""

    start: float = float("inf")
    end: float = float("inf")

    def holds(self, t: float) -> bool:
        return self.start <= t < self.end


@dataclass
class Tally:
    taps: int = 0  # every tap sent (whole run)
    answered: int = 0  # taps the bot answered with answerCallbackQuery (whole run)
    answer_taps: int = 0  # taps on an answer button
    accepted: int = 0  # answer taps whose popup was a verdict: an answer the bot stored
    quizzes_started: int = 0
    errors: int = 0  # screens or popups that never came
    window_taps: int = 0
    window_accepted: int = 0
    popup: list[float] = field(default_factory=list)  # seconds, taps in the window
    screen: list[float] = field(default_factory=list)
    question: list[float] = field(default_factory=list)  # "Next" tap -> next question sent


class Recorder:
    """Matches the bot's requests (emulator hook) to the taps that caused them."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.tally = Tally()
        self._queries: dict[str, float] = {}
        self._chats: dict[int, tuple[float, str]] = {}

    def tapped(self, query_id: str, chat_id: int, t: float, kind: str) -> None:
        self._queries[query_id] = t
        self._chats[chat_id] = (t, kind)

    def hook(self, method: str, params: dict[str, Any], t: float) -> None:
        if method == "answerCallbackQuery":
            tapped = self._queries.pop(str(params.get("callback_query_id")), None)
            if tapped is not None and self.window.holds(tapped):
                self.tally.popup.append(t - tapped)
        elif method in ("sendMessage", "editMessageText") and params.get("reply_markup"):
            try:
                chat_id = int(params.get("chat_id", 0))
            except (TypeError, ValueError):
                return
            pending = self._chats.pop(chat_id, None)
            if pending is not None and self.window.holds(pending[0]):
                self.tally.screen.append(t - pending[0])
                if pending[1] == "next" and method == "sendMessage":
                    self.tally.question.append(t - pending[0])


class Pacer:
    """Hands out tap slots at `rate` per second across all learners (open loop)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self.next = time.perf_counter()

    async def slot(self) -> None:
        now = time.perf_counter()
        if self.next < now - 0.1:
            self.next = now  # fell behind (every learner was waiting): no catch-up burst
        at = self.next
        self.next += self.interval
        if at > now:
            await asyncio.sleep(at - now)


def _has_buttons(m: EmuMessage) -> bool:
    return bool(m.buttons)


def _choose(screen: EmuMessage, rng: random.Random) -> tuple[str, str] | None:
    """(kind, callback data) of the button a learner taps on this screen; None: quiz over."""
    datas = [b.callback_data for row in screen.buttons for b in row if b.callback_data]
    answers = [d for d in datas if d.startswith("ans:")]
    if answers:
        return "ans", rng.choice(answers)
    nexts = [d for d in datas if d.startswith("next:")]
    return ("next", nexts[0]) if nexts else None


def _select_all(screen: EmuMessage) -> bool:
    return any(
        (b.callback_data or "").startswith(("tg:", "sub:")) for row in screen.buttons for b in row
    )


@dataclass
class Learner:
    user: SimUser
    emu: Emulator
    recorder: Recorder
    quizzes: dict[str, int]  # quiz id -> number of questions
    rng: random.Random

    async def run(self, pacer: Pacer | None, until: float) -> None:
        while time.perf_counter() < until:
            try:
                await self._quiz(pacer, until)
            except TimeoutError:
                self.recorder.tally.errors += 1

    async def _quiz(self, pacer: Pacer | None, until: float) -> None:
        chat = self.user.private
        quiz_id = self.rng.choice(sorted(self.quizzes))
        taps_left = 2 * self.quizzes[quiz_id]  # an answer and a "Next" per question
        mark = chat.mark()
        await self.user.send(f"/start {quiz_id}")
        self.recorder.tally.quizzes_started += 1
        screen = await chat.wait_for(_has_buttons, after=mark, timeout=WAIT)
        while taps_left > 0:
            choice = _choose(screen, self.rng)
            if choice is None:
                if _select_all(screen):  # the learners tap one answer per question: stop here
                    await self._stop()
                return
            if pacer is not None:
                await pacer.slot()
            if time.perf_counter() >= until:
                return
            screen = await self._tap(screen, *choice)
            taps_left -= 1

    async def _stop(self) -> None:
        """/stop the attempt (a select-all question comes after the one-tap ones in each
        shipped quiz), so that the next /start begins a new one."""
        mark = self.user.private.mark()
        await self.user.send("/stop")
        await self.user.private.next_message(after=mark, timeout=WAIT)

    async def _tap(self, screen: EmuMessage, kind: str, data: str) -> EmuMessage:
        chat = self.user.private
        tally = self.recorder.tally
        mark = chat.mark()
        current = chat.message(screen.message_id)
        t = time.perf_counter()
        query = self.emu.world.tap(self.user.state, current, data)
        self.recorder.tapped(query.id, chat.id, t, kind)
        in_window = self.recorder.window.holds(t)
        tally.taps += 1
        tally.window_taps += in_window
        answer = await asyncio.wait_for(asyncio.shield(query.answer), WAIT)
        tally.answered += 1
        if kind == "ans":
            tally.answer_taps += 1
            if answer.text and answer.text[:1] in ("✅", "❌"):
                tally.accepted += 1
                tally.window_accepted += in_window
        return await chat.wait_for(_has_buttons, after=mark, timeout=WAIT)


async def drive(
    emu: Emulator,
    quizzes: dict[str, int],
    *,
    users: int,
    rate: float | None,
    warmup: float,
    duration: float,
    seed: int = 7,
    first_user_id: int = 100_000,
    probe: Callable[[], None] | None = None,
) -> Tally:
    """Run `users` learners for warmup + duration seconds; count what falls in the window.

    `probe` is called as the window opens and as it closes (to read CPU counters)."""
    window = Window()
    recorder = Recorder(window)
    remove = emu.on_request(recorder.hook)
    rng = random.Random(seed)
    learners = [
        Learner(
            emu.user(first_user_id + i, f"Learner{i}", language_code=LANGUAGES[i % 3]),
            emu,
            recorder,
            quizzes,
            random.Random(rng.random()),
        )
        for i in range(users)
    ]
    pacer = Pacer(rate) if rate else None
    now = time.perf_counter()
    window.start, window.end = now + warmup, now + warmup + duration
    probes = asyncio.create_task(_probe_at(window, probe)) if probe else None
    try:
        await asyncio.gather(*(learner.run(pacer, window.end) for learner in learners))
        if probes is not None:
            await probes
    finally:
        remove()
    return recorder.tally


async def _probe_at(window: Window, probe: Callable[[], None]) -> None:
    for at in (window.start, window.end):
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        probe()
