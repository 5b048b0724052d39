"""Content reloaded while several workers serve the bot: an owner's `/reload` (or `quizbot
content reload` beside them) reaches every worker, so no two workers serve different content.

Each worker here is a `Workers` of its own (as if on two hosts), so the test chooses which one
a chat's updates reach: the bridge posts to one worker's port, then to the other's.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest
import yaml

from bot.bench.webhook import Bridge, Workers
from bot.cli.content_reload import run_reload
from bot.content import load_catalog
from bot.core.markup import plain
from bot.emulator import Emulator
from bot.store.pg.cluster import Cluster
from bot.store.pg.content_generation import ContentGeneration
from tests.pgserver import new_database

TOKEN = "123456:TEST-content-reload"
SHIPPED = Path(__file__).resolve().parents[2] / "content"
QUIZ = "gradient-accumulation"
OWNER = 4242


def reverse_questions(content: Path) -> str:
    """Reverse the quiz's questions (ids and answers unchanged); the new first prompt."""
    source = content / "quizzes" / f"{QUIZ}.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["questions"] = dict(reversed(list(data["questions"].items())))
    source.write_text(
        yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000), encoding="utf-8"
    )
    quiz = load_catalog(content).quiz(QUIZ)
    assert quiz is not None
    return plain(quiz.questions[0].prompt.get("en"))


async def first_question_becomes(emu: Emulator, prompt: str, seconds: float = 30) -> None:
    """Learners, a new one every try, start the quiz until its first question is `prompt`."""
    deadline = asyncio.get_running_loop().time() + seconds
    user_id = 5000
    while True:
        user_id += 1
        learner = emu.user(user_id, "Awa", language_code="en")
        mark = learner.private.mark()
        await learner.send(f"/start {QUIZ}")
        question = await learner.private.wait_for(
            lambda m: "Question 1/" in m.text, after=mark, timeout=30
        )
        if prompt[:40] in question.text:
            return
        assert asyncio.get_running_loop().time() < deadline, question.text
        await asyncio.sleep(1)


async def two_workers_reload(
    pg_cluster: Cluster,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    reload: Callable[[Emulator, str], Awaitable[None]],
) -> None:
    """Worker a is asked to reload (`reload(emu, dsn)`); worker b must serve the new content."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    monkeypatch.setenv("QUIZBOT_CONTENT_DIR", str(content))  # the workers inherit it
    monkeypatch.setenv("QUIZBOT_OWNER_IDS", str(OWNER))
    dsn = await new_database(pg_cluster, migrated=False)
    async with Emulator(token=TOKEN) as emu:
        a, b = Workers(emu, TOKEN, dsn, 1), Workers(emu, TOKEN, dsn, 1)
        a.start()
        b.start()
        bridge = Bridge(emu, TOKEN, a.port)
        try:
            await asyncio.wait_for(asyncio.gather(a.ready(), b.ready()), 60)
            bridge.start()
            prompt = reverse_questions(content)
            await reload(emu, dsn)
            await bridge.stop()
            bridge = Bridge(emu, TOKEN, b.port)  # from now on, only worker b hears the chats
            bridge.start()
            await first_question_becomes(emu, prompt)
        finally:
            await bridge.stop()
            codes = a.stop() + b.stop()
    assert codes == [0, 0]


@pytest.mark.timeout(180)
async def test_an_owners_reload_on_one_worker_is_served_by_every_worker(
    pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    async def owner_reload(emu: Emulator, dsn: str) -> None:
        owner = emu.user(OWNER, "Owner", language_code="en")
        mark = owner.private.mark()
        await owner.send("/reload")
        reply = await owner.private.next_message(after=mark, timeout=30)
        assert f"Quizzes changed: {QUIZ}" in reply.text

    await two_workers_reload(pg_cluster, monkeypatch, tmp_path, owner_reload)


@pytest.mark.timeout(180)
async def test_the_reload_command_beside_workers_reaches_every_worker(
    pg_cluster: Cluster,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    async def command_reload(emu: Emulator, dsn: str) -> None:
        code = await asyncio.to_thread(run_reload, None, dsn)
        assert code == 0, capsys.readouterr().err

    await two_workers_reload(pg_cluster, monkeypatch, tmp_path, command_reload)
    assert "each of the 2 running workers" in capsys.readouterr().out


async def test_the_reload_command_tells_no_worker_when_the_content_has_errors(
    pg_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    source = content / "quizzes" / f"{QUIZ}.yaml"
    source.write_text(source.read_text(encoding="utf-8") + "\n  - [broken\n", encoding="utf-8")
    monkeypatch.setenv("QUIZBOT_CONTENT_DIR", str(content))
    conn = await asyncpg.connect(pg_dsn)
    try:
        before = await ContentGeneration(conn).current()
        assert await asyncio.to_thread(run_reload, None, pg_dsn) == 1
        assert await ContentGeneration(conn).current() == before
    finally:
        await conn.close()
    err = capsys.readouterr().err
    assert f"{QUIZ}.yaml" in err and "the workers were not told to reload" in err


async def test_the_reload_command_says_so_when_no_worker_runs(
    pg_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No worker and no one process's socket: nothing would reload, so it is not a success."""
    monkeypatch.chdir(tmp_path)  # no socket beside the default database here
    assert await asyncio.to_thread(run_reload, None, pg_dsn) == 1
    assert "no worker runs on this database" in capsys.readouterr().err
