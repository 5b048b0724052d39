"""The webhook front: stored before the 200, secret checked, bad bodies refused, health."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator

import aiohttp
import asyncpg
import pytest
from aiohttp.test_utils import TestClient, TestServer
from telegram import Bot, Update

from bot.ordering import json_ordering_key as ordering_key
from bot.store.pg.inbox import UpdateQueue
from bot.tg.wire.read_updates import ReadUpdates
from bot.tg.wire.webhook_server import read_update
from bot.webhook_gate import SECRET_HEADER, serve
from bot.workers.consumer import Consumer
from bot.workers.front import Front
from tests.e2e.harness import TOKEN
from tests.reliability import webhook_fuzz
from tests.reliability.support import free_port
from tests.reliability.webhook_fuzz import MALFORMED_UPDATES

SECRET = "s3cret-token_1"


def _tap(update_id: int, chat: int, user: int) -> dict[str, object]:
    return {
        "update_id": update_id,
        "callback_query": {
            "id": "1",
            "from": {"id": user, "is_bot": False, "first_name": "A"},
            "chat_instance": "x",
            "data": "g:1:0:1",
            "message": {"message_id": 5, "date": 0, "chat": {"id": chat, "type": "group"}},
        },
    }


def _message(update_id: int, chat: int, user: int) -> dict[str, object]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": 0,
            "chat": {"id": chat, "type": "private" if chat > 0 else "group"},
            "from": {"id": user, "is_bot": False, "first_name": "A"},
            "text": "/start",
        },
    }


def test_ordering_keys() -> None:
    assert ordering_key(_message(1, 42, 42)) == "c42"
    assert ordering_key(_tap(2, 42, 42)) == "c42"  # a private tap: the learner's chat
    assert ordering_key(_message(3, -100, 42)) == "c-100"  # a group's command: the group
    assert ordering_key(_tap(4, -100, 42)) == "c-100:u42"  # members tap side by side
    inline = {"update_id": 5, "inline_query": {"id": "q", "from": {"id": 9}, "query": ""}}
    assert ordering_key(inline) == "u9"
    assert ordering_key({"update_id": 6}) == "x6"


async def test_an_update_is_stored_once_before_the_200(pg_pool: asyncpg.Pool) -> None:
    queue = UpdateQueue(pg_pool, "front")
    async with TestClient(TestServer(Front(queue, SECRET).app())) as client:
        body = json.dumps(_tap(10, -100, 42))
        for _ in range(2):  # Telegram's retry of the same update
            resp = await client.post("/telegram", data=body, headers={SECRET_HEADER: SECRET})
            assert resp.status == 200
        rows = await pg_pool.fetch("SELECT update_id, chat_key, payload FROM work_updates")
    # The JSON as read (a tapped message's formatting left out: the next test), not its text.
    assert [(r["update_id"], r["chat_key"], json.loads(r["payload"])) for r in rows] == [
        (10, "c-100:u42", json.loads(body))
    ]


async def test_a_tapped_messages_formatting_is_not_stored(pg_pool: asyncpg.Pool) -> None:
    """What no handler reads is not written, logged and read back by PostgreSQL (issue 32)."""
    queue, bot = UpdateQueue(pg_pool, "front"), Bot(TOKEN)
    front = Front(queue, SECRET, check=lambda update: read_update(update, bot))
    tap = _tap(11, -100, 42)
    message = tap["callback_query"]["message"]  # type: ignore[index]
    message["text"] = "Question 1/3"
    message["entities"] = [{"type": "bold", "offset": 0, "length": 8}]
    message["reply_markup"] = {"inline_keyboard": [[{"text": "A", "callback_data": "g:1:0:0"}]]}
    async with TestClient(TestServer(front.app())) as client:
        resp = await client.post("/telegram", json=tap, headers={SECRET_HEADER: SECRET})
        assert resp.status == 200
    stored = json.loads(await pg_pool.fetchval("SELECT payload FROM work_updates"))
    kept = stored["callback_query"]["message"]
    assert kept["text"] == "Question 1/3" and "entities" not in kept
    assert kept["reply_markup"] == {"inline_keyboard": []}  # it had one: all a handler asks


async def test_a_wrong_or_missing_secret_is_refused(pg_pool: asyncpg.Pool) -> None:
    queue = UpdateQueue(pg_pool, "front")
    async with TestClient(TestServer(Front(queue, SECRET).app())) as client:
        body = json.dumps(_message(1, 5, 5))
        for headers in ({}, {SECRET_HEADER: "wrong"}, {SECRET_HEADER: SECRET + "x"}):
            resp = await client.post("/telegram", data=body, headers=headers)
            assert resp.status == 403
    assert await queue.pending() == 0


async def test_a_front_without_a_secret_refuses_every_update(pg_pool: asyncpg.Pool) -> None:
    """A worker started by hand with no QUIZBOT_WEBHOOK_SECRET: an empty secret is no lock, so
    the door stays shut rather than open to anyone who finds the port."""
    queue = UpdateQueue(pg_pool, "front")
    async with TestClient(TestServer(Front(queue, "").app())) as client:
        body = json.dumps(_message(1, 5, 5))
        for headers in ({}, {SECRET_HEADER: ""}):
            resp = await client.post("/telegram", data=body, headers=headers)
            assert resp.status == 403
    assert await queue.pending() == 0


async def test_bodies_that_are_not_updates_are_refused(pg_pool: asyncpg.Pool) -> None:
    queue = UpdateQueue(pg_pool, "front")
    async with TestClient(TestServer(Front(queue, SECRET).app())) as client:
        for body in (
            "not json",
            "[]",
            '{"message": {}}',
            '{"update_id": "7"}',
            '{"update_id": true}',
        ):
            resp = await client.post("/telegram", data=body, headers={SECRET_HEADER: SECRET})
            assert resp.status == 400, body
    assert await queue.pending() == 0


async def test_health_and_readiness(pg_dsn: str) -> None:
    pool = await asyncpg.create_pool(pg_dsn, min_size=1, max_size=2)
    state = {"running": True}
    front = Front(UpdateQueue(pool, "front"), SECRET, running=lambda: state["running"])
    async with TestClient(TestServer(front.app())) as client:
        assert (await client.get("/healthz")).status == 200
        assert (await client.get("/readyz")).status == 200
        state["running"] = False  # stopping: no new traffic, please
        assert (await client.get("/readyz")).status == 503
        state["running"] = True
        await pool.close()  # the database is gone
        assert (await client.get("/readyz")).status == 503
        assert (await client.get("/healthz")).status == 200
        resp = await client.post(
            "/telegram", data=json.dumps(_message(1, 5, 5)), headers={SECRET_HEADER: SECRET}
        )
        assert resp.status == 503  # not stored: Telegram keeps it and retries


async def test_malformed_bodies_get_400_one_line_and_are_not_stored(
    pg_pool: asyncpg.Pool, caplog: pytest.LogCaptureFixture
) -> None:
    """With the secret but no update (100,000 brackets, invalid UTF-8, an id past BIGINT, a
    shape PTB cannot read): 400 and a short line while the log's budget lasts, never a 500 or a
    traceback, nothing stored for a worker to fail on later."""
    queue = UpdateQueue(pg_pool, "front")
    bot = Bot(TOKEN)  # PTB's own reading of the body, as the worker process wires it
    front = Front(queue, SECRET, check=lambda update: read_update(update, bot))
    caplog.set_level(logging.INFO)
    async with TestClient(TestServer(front.app())) as client:
        for body in MALFORMED_UPDATES:
            resp = await client.post("/telegram", data=body, headers={SECRET_HEADER: SECRET})
            assert resp.status == 400, body[:60]
    assert await queue.pending() == 0
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.webhook_gate"]
    assert lines and all("400 no update" in line for line in lines), lines


async def test_the_secret_is_checked_before_the_body_and_bodies_stop_at_1_mb(
    pg_pool: asyncpg.Pool,
) -> None:
    queue = UpdateQueue(pg_pool, "front")
    async with TestClient(TestServer(Front(queue, SECRET).app())) as client:
        big = json.dumps({**_message(1, 5, 5), "pad": "x" * (2 << 20)})
        resp = await client.post("/telegram", data=big, headers={SECRET_HEADER: SECRET})
        assert resp.status == 413

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: read up to the cap
            for _ in range(3):
                yield b"x" * (1 << 20)

        try:
            resp = await client.post("/telegram", data=chunks(), headers={SECRET_HEADER: SECRET})
            assert resp.status == 413
        except aiohttp.ClientConnectionError:
            pass  # the server answered 413 and closed while this client was still writing
        resp = await client.post("/telegram", data=big)
        assert resp.status == 403
    assert await queue.pending() == 0


async def test_fuzzed_requests_never_break_the_front(
    pg_pool: asyncpg.Pool, caplog: pytest.LogCaptureFixture
) -> None:
    """The front served as a worker serves it: whatever arrives, a status below 500, no
    traceback, and only updates PTB can read are stored."""
    bot = Bot(TOKEN)
    front = Front(
        UpdateQueue(pg_pool, "front"), webhook_fuzz.SECRET,
        check=lambda update: read_update(update, bot),
    )  # fmt: skip
    port = free_port()
    caplog.set_level(logging.INFO)
    runner = await serve(front.app(), "127.0.0.1", port)
    try:
        seen = await asyncio.to_thread(webhook_fuzz.fuzz, f"http://127.0.0.1:{port}/telegram", 300)
    finally:
        await runner.cleanup()
    assert 400 in seen
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    for row in await pg_pool.fetch("SELECT payload FROM work_updates"):
        Update.de_json(json.loads(row["payload"]), bot)  # what a worker will read


async def test_what_the_front_read_is_handed_to_its_own_worker_once(
    pg_pool: asyncpg.Pool,
) -> None:
    """A worker's front reads each body with PTB (to refuse what PTB cannot read); the update
    it read goes to this process's consumer by the stored text, so the consumer does not parse
    it again (issue 32). A copy Telegram sends again is stored once and kept once."""
    queue, bot, reads = UpdateQueue(pg_pool, "front"), Bot(TOKEN), ReadUpdates()
    front = Front(queue, SECRET, check=lambda update: read_update(update, bot), keep=reads.keep)
    body = json.dumps(_tap(31, -100, 42))
    async with TestClient(TestServer(front.app())) as client:
        for _ in range(2):
            resp = await client.post("/telegram", data=body, headers={SECRET_HEADER: SECRET})
            assert resp.status == 200
    [claimed] = await queue.claim(5)
    read = reads.take(claimed.payload)  # the text as the inbox gives it back
    assert isinstance(read, Update) and read.update_id == 31
    assert read.callback_query is not None and read.callback_query.data == "g:1:0:1"
    assert reads.take(claimed.payload) is None  # once
    assert len(reads) == 0


async def test_the_worker_that_takes_an_update_within_the_put_finds_it_read(
    pg_pool: asyncpg.Pool,
) -> None:
    """The front's own worker takes what it has room for in the put's own statement, and starts
    on it before the request hears back: what the front read must already be there, or the
    worker parses every update a second time (issue 32)."""
    bot, reads = Bot(TOKEN), ReadUpdates()
    found: list[bool] = []

    async def handle(payload: str) -> None:
        found.append(reads.take(payload) is not None)

    worker = Consumer(pg_pool, "front", handle, clock=time.time, slots=8, poll=5)
    await worker.start()
    queue = UpdateQueue(pg_pool, "front", local=worker)
    front = Front(queue, SECRET, check=lambda update: read_update(update, bot), keep=reads.keep)
    try:
        async with TestClient(TestServer(front.app())) as client:
            for uid in (41, 42, 43):
                body = json.dumps(_tap(uid, -100, uid))
                resp = await client.post("/telegram", data=body, headers={SECRET_HEADER: SECRET})
                assert resp.status == 200
        for _ in range(200):
            if len(found) == 3:
                break
            await asyncio.sleep(0.01)
    finally:
        await worker.stop()
    assert found == [True, True, True]


def test_read_updates_are_bounded() -> None:
    reads = ReadUpdates(limit=3)
    updates = {f"body{i}": Update(i) for i in range(5)}
    for body, update in updates.items():
        reads.keep(body, update)
    assert len(reads) == 3
    assert reads.take("body0") is None  # the oldest fell out (claimed by another worker)
    assert reads.take("body4") is updates["body4"]
    reads.keep("junk", None)  # nothing read: nothing kept
    assert reads.take("junk") is None
