"""Worker processes on PostgreSQL against the emulator (multi-worker tests, `bench scaling`).

The emulator records a webhook but never calls one, so `Bridge` plays Telegram's side of it:
it reads updates with getUpdates and POSTs them to the workers' shared port with the secret,
up to `max_connections` at once (Telegram's webhook setting, 40 by default), moving on
(confirming them) only once each got a 200, as Telegram does. A 200 that carries a method call
(a tap's popup: bot/webhook_replies.py) is made on the bot's behalf, as Telegram makes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp

from bot.emulator import Emulator
from bot.webhook_gate import SECRET_HEADER

ROOT = Path(__file__).resolve().parents[2]
SECRET = "bridge-secret-123"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Workers:
    """`count` worker processes sharing one port and one database."""

    def __init__(
        self,
        emu: Emulator,
        token: str,
        dsn: str,
        count: int,
        *,
        seconds: float = 3,
        hosts: int = 1,
        watchdog: float = 20.0,
        poll: bool = False,
    ) -> None:
        """`poll`: the workers long-poll the emulator themselves (one at a time:
        bot/workers/poller.py) instead of taking a `Bridge`'s webhook requests."""
        self.port = free_port()
        self.poll = poll
        self.count = count
        # Workers "on `hosts` hosts": each is told only its own host's count, as
        # `quizbot run --workers N` on each host would tell it.
        self.per_host = max(1, count // max(1, hosts))
        self.watchdog = watchdog  # how soon a run whose worker died is resumed elsewhere
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "BOT_TOKEN": token,
            "QUIZBOT_DB": dsn,
            "QUIZBOT_API_BASE_URL": emu.base_url,
            "QUIZBOT_WEBHOOK_SECRET": SECRET,
            "QUIZBOT_WEBHOOK_LISTEN": "127.0.0.1",
            "QUIZBOT_WEBHOOK_PORT": str(self.port),
            "QUIZBOT_QUESTION_SECONDS": str(seconds),
            "QUIZBOT_LOG_LEVEL": os.environ.get("QB_TEST_LOG", "WARNING"),
        }
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self) -> None:
        for i in range(self.count):
            self.procs.append(
                subprocess.Popen(
                    [
                        sys.executable, "-m", "bot.cli.worker", "--index", str(i),
                        "--count", str(self.per_host), "--lease", "2", "--grace", "3",
                        "--watchdog", str(self.watchdog), *(["--poll"] if self.poll else []),
                    ],
                    cwd=ROOT,
                    env=self.env,
                )
            )  # fmt: skip

    async def ready(self) -> None:
        """Until every worker answers /readyz (the test's timeout bounds the wait)."""
        async with aiohttp.ClientSession() as http:
            while True:
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(f"http://127.0.0.1:{self.port}/readyz") as resp:
                        if resp.status == 200 and await self._all_started():
                            return
                await asyncio.sleep(0.2)

    async def _all_started(self) -> bool:
        return all(p.poll() is None for p in self.procs)

    def kill(self, index: int) -> None:
        self.procs[index].send_signal(signal.SIGKILL)
        self.procs[index].wait()

    def stop(self) -> list[int | None]:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        codes: list[int | None] = []
        for p in self.procs:
            try:
                codes.append(p.wait(timeout=20))
            except subprocess.TimeoutExpired:
                p.kill()
                codes.append(None)
        return codes


class Bridge:
    """Telegram's webhook delivery, for the emulator: getUpdates in, POST out, 200 to move on.

    Deliveries stream, as Telegram's do: up to `max_connections` requests are open at once, and
    the next updates are fetched while earlier ones are still being answered (an update is
    confirmed to the emulator as soon as it is fetched, and the bridge itself sends it again
    until it gets a 200). Fetching a batch only once the whole previous batch was answered held
    every update behind the slowest of its batch, a wait Telegram does not make."""

    def __init__(self, emu: Emulator, token: str, port: int, max_connections: int = 40) -> None:
        self.emu = emu
        self.get_updates = f"{emu.base_url}{token}/getUpdates"
        self.target = f"http://127.0.0.1:{port}/telegram"
        self.delivered = 0
        self.replies = 0  # method calls made from webhook responses
        self._connections = asyncio.Semaphore(max_connections)
        self._task: asyncio.Task[None] | None = None
        self._deliveries: set[asyncio.Task[None]] = set()

    async def _run(self) -> None:
        offset = 0
        async with aiohttp.ClientSession() as http:
            try:
                while True:
                    async with http.post(
                        self.get_updates, json={"offset": offset, "timeout": 1}
                    ) as r:
                        updates = (await r.json())["result"]
                    for update in updates:
                        await self._connections.acquire()  # at most max_connections open
                        task = asyncio.create_task(self._until_delivered(http, update))
                        self._deliveries.add(task)
                        task.add_done_callback(self._deliveries.discard)
                    if updates:
                        offset = updates[-1]["update_id"] + 1
            finally:
                for task in list(self._deliveries):
                    task.cancel()
                await asyncio.gather(*self._deliveries, return_exceptions=True)

    async def _until_delivered(
        self, http: aiohttp.ClientSession, update: dict[str, object]
    ) -> None:
        try:
            while not await self._deliver(http, update):
                await asyncio.sleep(0.1)  # a worker died mid-request: send it again
            self.delivered += 1
        finally:
            self._connections.release()

    async def _deliver(self, http: aiohttp.ClientSession, update: dict[str, object]) -> bool:
        try:
            async with http.post(self.target, json=update, headers={SECRET_HEADER: SECRET}) as resp:
                if resp.status != 200:
                    return False
                call = await resp.json() if resp.content_type == "application/json" else None
        except aiohttp.ClientError:
            return False
        if isinstance(call, dict) and isinstance(method := call.pop("method", None), str):
            self.replies += 1
            # Made within Telegram, as Telegram does, which reports nothing of it to the bot.
            await self.emu.call(method, call)
        return True

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
