"""The dashboard as `quizbot web` serves it, for web tests: a store, the Bot API emulator answering
the admin checks, and GETs signed as a chosen user. Shared by the answer-key, flood and
learner-page tests, so no test imports another."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest

from bot.emulator import Emulator
from bot.store import GroupStore
from bot.tg.mini_app import member_status
from bot.usecases.dashboard import DashboardService
from bot.usecases.group_admins import AdminCache
from bot.web.auth import sign_init_data
from bot.web.routes import WebOptions
from bot.web.server import start
from tests.e2e.harness import TOKEN, FakeClock, shipped_catalog

ACCUMULATION, CHECKPOINTING = "gradient-accumulation", "gradient-checkpointing"
OWNER, ADMIN, LEARNER, STRANGER = 5001, 5002, 5003, 5004
GROUP = -100_5555
ROW = re.compile(r'<tr data-question="([^"]+)" data-answer="(shown|hidden)">(.*?)</tr>', re.S)


@dataclass
class World:
    emu: Emulator
    url: str
    clock: FakeClock
    session: aiohttp.ClientSession

    async def get(self, path: str, user_id: int) -> tuple[int, str]:
        user = {"id": user_id, "first_name": f"U{user_id}", "language_code": "en"}
        data = sign_init_data(TOKEN, user, auth_date=self.clock.now)
        headers = {"Authorization": f"tma {data}"}
        async with self.session.get(self.url + path, headers=headers) as response:
            return response.status, await response.text()

    async def rows(self, quiz_id: str, user_id: int, chat: int | None = None) -> dict[str, str]:
        """question id -> the row's HTML, for the rows that show their key."""
        where = f"&chat={chat}" if chat is not None else ""
        status, page = await self.get(f"/api/view?view=preview&quiz={quiz_id}{where}", user_id)
        assert status == 200
        rows = ROW.findall(page)
        assert rows, page[:300]
        for _, state, html in rows:  # a hidden key leaves no trace in its row
            if state == "hidden":
                assert 'class="ok"' not in html and 'class="why"' not in html and "✅" not in html
        return {question: html for question, state, html in rows if state == "shown"}


@pytest.fixture
async def world(db) -> AsyncIterator[World]:  # type: ignore[no-untyped-def]
    catalog = shipped_catalog()
    clock = FakeClock()
    async with Emulator(token=TOKEN, flood=None) as emu:
        admin = emu.user(ADMIN, "Ada")
        group = emu.group(GROUP, "Study group")
        group.add_member(admin, "creator")
        for user_id in (OWNER, LEARNER, STRANGER):
            group.add_member(emu.user(user_id, f"U{user_id}"))
        await emu.add_bot_to_group(group, by=admin)
        await GroupStore(db).ensure_group(GROUP, "Study group", "en", 30, "UTC", clock())
        service = DashboardService(catalog, db, clock=clock, owners=frozenset({OWNER}))
        async with member_status(TOKEN, emu.base_url) as fetch, aiohttp.ClientSession() as session:
            options = WebOptions(
                token=TOKEN, service=service,
                is_admin=AdminCache(fetch, clock).is_admin, clock=clock,
            )  # fmt: skip
            runner, port = await start(options, "127.0.0.1", 0)
            try:
                yield World(emu, f"http://127.0.0.1:{port}", clock, session)
            finally:
                await runner.cleanup()
