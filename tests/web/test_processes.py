"""The dashboard as operators start it: mounted in `quizbot run` when QUIZBOT_WEBAPP_URL is set,
on its own with `quizbot web`, and refused with one clear line when misconfigured."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from bot.emulator import Emulator
from bot.web.auth import sign_init_data
from tests.e2e.harness import TOKEN
from tests.e2e.uploads_kit import GIFT
from tests.reliability.support import ROOT, BotProcess

ADMIN, STRANGER, GROUP = 4001, 4002, -100_4242


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def view(port: int, user_id: int, start_param: str | None = None) -> tuple[int, str]:
    data = sign_init_data(TOKEN, {"id": user_id, "first_name": "Op"}, start_param=start_param)
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/view", headers={"Authorization": f"tma {data}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def wait_for_health(port: int, proc: subprocess.Popen[bytes] | None = None) -> None:
    for _ in range(400):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"exited with {proc.returncode}")
        await asyncio.sleep(0.05)
    raise AssertionError("the dashboard never answered")


async def test_quizbot_run_serves_the_dashboard_when_its_url_is_set(tmp_path: Path) -> None:
    port = free_port()
    env = {
        "QUIZBOT_WEBAPP_URL": "https://quiz.example.org/",
        "QUIZBOT_WEBAPP_NAME": "dash",
        "QUIZBOT_WEB_PORT": str(port),
    }
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = BotProcess(tmp_path, emu, tmp_path / "quizbot.sqlite3", env=env)
        bot.start()
        try:
            await bot.ready()
            await wait_for_health(port)
            status, page = await asyncio.to_thread(view, port, ADMIN)
            assert status == 200 and "Your progress" in page
            (menu,) = emu.calls("setChatMenuButton")
            button = menu["menu_button"]
            button = json.loads(button) if isinstance(button, str) else button
            assert button["web_app"]["url"] == "https://quiz.example.org/"
        finally:
            await bot.stop()
        assert bot.proc is not None and bot.proc.returncode == 0
        assert TOKEN not in bot.output()


async def test_quizbot_web_on_its_own(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "quizbot.sqlite3"
    async with Emulator(token=TOKEN, flood=None) as emu:
        # A database made by the bot first: `quizbot web` reads one, it does not create one.
        # The bot is added to the group while it runs (it records the group): the dashboard asks
        # Telegram only about groups the bot knows, and getChatMember needs the bot in the group.
        bot = BotProcess(tmp_path, emu, db)
        bot.start()
        await bot.ready()
        group = emu.group(GROUP, "Ops")
        admin = emu.user(ADMIN, "Admin")
        group.add_member(admin, "creator")
        group.add_member(emu.user(STRANGER, "Member"), "member")
        await emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        await bot.stop()
        env = {
            **os.environ, "BOT_TOKEN": TOKEN, "QUIZBOT_API_BASE_URL": emu.base_url,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }  # fmt: skip
        err = (tmp_path / "web.err").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "web", "--db", str(db), "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err,
        )  # fmt: skip
        try:
            await wait_for_health(port, proc)
            assert (await asyncio.to_thread(view, port, ADMIN))[0] == 200
            status, page = await asyncio.to_thread(view, port, ADMIN, f"g{GROUP}")
            assert status == 200 and "Group statistics" in page and "Ops" in page  # as recorded
            assert (await asyncio.to_thread(view, port, STRANGER, f"g{GROUP}"))[0] == 403
        finally:
            proc.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(proc.wait, 10)
            err.close()
        log = (tmp_path / "web.err").read_text("utf-8", "replace")
        assert code == 0, log
        assert TOKEN not in log and "Traceback" not in log


def run_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "QUIZBOT_"))},
        "PYTHONPATH": str(ROOT), **env,
    }  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, env=full, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip


def test_misconfiguration_is_one_clear_line(tmp_path: Path) -> None:
    plain_http = run_cli("run", env={"BOT_TOKEN": TOKEN, "QUIZBOT_WEBAPP_URL": "http://x.org/"})
    assert plain_http.returncode == 2 and "QUIZBOT_WEBAPP_URL must start with https://" in (
        plain_http.stderr
    )
    no_token = run_cli("web", env={})
    assert no_token.returncode == 2 and "BOT_TOKEN" in no_token.stderr
    no_db = run_cli("web", "--db", str(tmp_path / "none.sqlite3"), env={"BOT_TOKEN": TOKEN})
    assert no_db.returncode == 1 and "no database" in no_db.stderr
    for result in (plain_http, no_token, no_db):
        assert "Traceback" not in result.stderr and TOKEN not in result.stderr


async def test_quizbot_web_on_its_own_knows_the_groups_own_quizzes(tmp_path: Path) -> None:
    # `quizbot web` read the shipped content only: a group's uploaded quiz, which the dashboard
    # beside the bot names (its schedules, hardest questions, item analysis, review queues),
    # was unknown to it; a schedule of it read as its bare id.
    port = free_port()
    db = tmp_path / "quizbot.sqlite3"
    async with Emulator(token=TOKEN, flood=None) as emu:
        bot = BotProcess(tmp_path, emu, db)
        bot.start()
        await bot.ready()
        group = emu.group(GROUP, "Ops")
        admin = emu.user(ADMIN, "Admin")
        group.add_member(admin, "creator")
        await emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        await admin.send_document("ours.gift", GIFT.encode(), caption="/upload", chat=group)
        await group.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
        mark = group.mark()
        await admin.send("/schedule our-own-quiz daily 18:30", chat=group)
        scheduled = await group.next_message(after=mark)
        assert scheduled.text.startswith("✅"), scheduled.text
        await bot.stop()
        env = {
            **os.environ, "BOT_TOKEN": TOKEN, "QUIZBOT_API_BASE_URL": emu.base_url,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }  # fmt: skip
        err = (tmp_path / "web.err").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "web", "--db", str(db), "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err,
        )  # fmt: skip
        try:
            await wait_for_health(port, proc)
            status, page = await asyncio.to_thread(view, port, ADMIN, f"g{GROUP}")
        finally:
            proc.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(proc.wait, 10)
            err.close()
        log = (tmp_path / "web.err").read_text("utf-8", "replace")
        assert code == 0, log
        assert status == 200, page[:300]
        assert "Our own quiz" in page[page.index('id="schedules"') :]
