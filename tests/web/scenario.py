"""A small world for the dashboard's tests, made by the real bot through the emulator: a learner
who took a quiz privately (one miss in the review queue), a study group whose run she pushed and
two members answered in Wolof and French, and a schedule. The dashboard is served beside the bot
exactly as `quizbot run` serves it.

`Served` runs all of it on an event loop in a thread of its own, so synchronous tests (and
Playwright's synchronous API, which cannot run inside an event loop) can use it.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from bot.cli.run import start_dashboard
from bot.emulator import Emulator
from bot.emulator.driver import ChatView, SimUser
from bot.tg.mini_app import DashboardLinks
from bot.web.auth import sign_init_data
from tests.e2e.groups_kit import LETTERS, QUIZ, GroupHarness, right_position, short_catalog
from tests.e2e.harness import TOKEN, answered

T = TypeVar("T")
GROUP = -100_777
AWA, MOUSSA, CLAIRE = 3001, 3002, 3003  # Awa: learner and group creator
NDEYE = 3004  # an administrator of the group who never chose a language in the bot
LINKS = DashboardLinks("https://dash.example.org/", "dash")


@dataclass
class DashboardHarness(GroupHarness):
    def options(self):  # type: ignore[no-untyped-def]
        return replace(super().options(), dashboard=LINKS)


async def take_private_quiz(h: GroupHarness, user: SimUser, pattern: list[bool]) -> None:
    """The learner takes QUIZ in private, answering right where `pattern` says so."""
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    chat = user.private
    mark = chat.mark()
    await user.send(f"/start {QUIZ}")  # a deep link: the first question at once
    for index, right in enumerate(pattern):
        question = await chat.next_message(after=mark)
        position = right_position(question, quiz, index, "en")
        mark = chat.mark()
        await user.tap(question, LETTERS[position if right else (position + 1) % 4])
        explanation = await answered(chat, question, mark)
        mark = chat.mark()
        await user.tap(explanation, explanation.buttons[0][0].text)
    await chat.next_message(after=mark)  # the score


async def build(h: GroupHarness) -> tuple[ChatView, SimUser]:
    awa = h.emu.user(AWA, "Awa", language_code="en")
    moussa = h.emu.user(MOUSSA, "Moussa", language_code="wo")
    claire = h.emu.user(CLAIRE, "Claire", language_code="fr")
    await awa.send("/start")
    picker = await awa.private.wait_for(lambda m: bool(m.buttons))
    await awa.tap(picker, "✓ English")
    await take_private_quiz(h, awa, [True, False])
    await claire.send("/timezone Pacific/Auckland")  # her review days are Auckland's
    await claire.private.wait_for(lambda m: "Pacific/Auckland" in m.text)

    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    group = h.emu.group(GROUP, "Study group")
    group.add_member(awa, "creator")
    await h.emu.add_bot_to_group(group, by=awa)
    await group.wait_for(lambda m: "/push" in m.text)
    for member in (moussa, claire):
        group.add_member(member)
    group.add_member(h.emu.user(NDEYE, "Ndeye", language_code="wo"), "administrator")
    await awa.send(f"/push {QUIZ}", chat=group)
    for index in range(len(quiz)):
        question = await group.wait_for(lambda m, i=index: f"Question {i + 1}/" in m.text)
        right = right_position(question, quiz, index)
        await moussa.tap(question, LETTERS[right])
        await claire.tap(question, LETTERS[(right + 1 + index) % 4])  # wrong, not the same twice
    await group.wait_for(lambda m: "🏁" in m.text, timeout=30)
    await awa.send("/schedule next weekdays 18:30", chat=group)
    await group.wait_for(lambda m: m.text.startswith("✅"))
    mark = awa.private.mark()
    await awa.send("/stats")  # both reports carry a way into the dashboard
    await awa.private.next_message(after=mark)
    mark = group.mark()
    await awa.send("/groupstats", chat=group)
    await group.next_message(after=mark)
    return group, awa


class Served:
    """The bot, its emulator and the dashboard on a loop in a thread: `url`, `rows`, `sign`."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.emu: Emulator | None = None
        self.h: DashboardHarness | None = None
        self.runner: web.AppRunner | None = None
        self.url = ""

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 90) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> None:
        self.run(self._start())

    async def _start(self) -> None:
        self.emu = Emulator(token=TOKEN, flood=None)
        await self.emu.start()
        self.h = DashboardHarness(
            self.emu, self.tmp / "quizbot.sqlite3", short_catalog(2), seconds=1.0
        )
        bot = await self.h.start_bot()
        await build(self.h)
        self.runner, port = await start_dashboard(bot, TOKEN, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        try:
            self.run(self._stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()

    async def _stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        if self.h is not None:
            await self.h.stop_bot()
        if self.emu is not None:
            await self.emu.stop()

    def rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.tmp / "quizbot.sqlite3") as conn:
            return conn.execute(sql, args).fetchall()

    def now(self) -> float:
        assert self.h is not None
        return self.h.clock.now

    def init_data(
        self, user_id: int, lang: str = "en", start_param: str | None = None, age: float = 0
    ) -> str:
        user = {"id": user_id, "first_name": f"User{user_id}", "language_code": lang}
        return sign_init_data(TOKEN, user, auth_date=self.now() - age, start_param=start_param)
