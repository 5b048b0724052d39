"""The workers' long polling: one poller at a time, each answer stored in one statement before it
is confirmed, an update PTB cannot read dropped with a line, Telegram's refusals waited out."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import Any

import asyncpg
import pytest
from telegram import Bot
from telegram.error import NetworkError

from bot.store.pg.inbox import Claimed, UpdateQueue
from bot.store.pg.poll_lock import PollLock
from bot.tg.wire.webhook_server import read_update
from bot.workers.front import Front
from bot.workers.poller import Poller
from tests.e2e.harness import TOKEN


def _tap(update_id: int) -> dict[str, Any]:
    """A tap of member `update_id` (its own ordering key)."""
    return {
        "update_id": update_id,
        "callback_query": {
            "id": str(update_id),
            "from": {"id": update_id, "is_bot": False, "first_name": "A"},
            "chat_instance": "x",
            "data": "g:1:0:1",
            "message": {"message_id": 5, "date": 0, "chat": {"id": -100, "type": "group"}},
        },
    }


class _Telegram:
    """getUpdates as Telegram answers it: updates at or after `offset`, confirmed below it."""

    def __init__(self, updates: list[dict[str, Any]], errors: list[Exception] = ()) -> None:  # type: ignore[assignment]
        self.updates, self.errors = updates, list(errors)
        self.offsets: list[int] = []

    async def fetch(self, offset: int, timeout: int) -> list[dict[str, Any]]:
        self.offsets.append(offset)
        if self.errors:
            raise self.errors.pop(0)
        batch = [json.loads(json.dumps(u)) for u in self.updates if u["update_id"] >= offset]
        if not batch:
            await asyncio.sleep(0.05)  # a long poll with nothing to send
        return batch


def _poller(dsn: str, queue: UpdateQueue, telegram: _Telegram, name: str = "w0") -> Poller:
    bot = Bot(TOKEN)

    def check(update: dict[str, Any]) -> object:  # PTB's reading, as the worker's
        return read_update(update, bot)

    front = Front(queue, "secret", check=check)  # the worker's own way to store an update
    return Poller(PollLock(dsn, name), queue, telegram.fetch, put=front.put, retry=0.05)


async def _until(predicate: Any, what: str) -> None:
    for _ in range(300):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def test_an_answer_is_stored_in_one_statement_then_confirmed(
    pg_pool: asyncpg.Pool, pg_dsn: str
) -> None:
    telegram = _Telegram([_tap(i) for i in range(10, 30)])
    queue = UpdateQueue(pg_pool, "w0")
    poller = _poller(pg_dsn, queue, telegram)
    poller.start()
    try:
        await _until(lambda: 30 in telegram.offsets, "the batch confirmed")
    finally:
        await poller.stop()
    assert telegram.offsets[:2] == [0, 30]  # confirmed only with the next call
    assert queue.statements == 1 and poller.stored == 20
    rows = await pg_pool.fetch("SELECT payload FROM work_updates ORDER BY update_id")
    assert [json.loads(r["payload"])["update_id"] for r in rows] == list(range(10, 30))


async def test_one_worker_polls_at_a_time_and_another_takes_over(
    pg_pool: asyncpg.Pool, pg_dsn: str
) -> None:
    telegram = _Telegram([])
    a = _poller(pg_dsn, UpdateQueue(pg_pool, "a"), telegram, "a")
    b = _poller(pg_dsn, UpdateQueue(pg_pool, "b"), telegram, "b")
    a.start()
    await _until(lambda: a.polling, "a polling")
    b.start()
    await asyncio.sleep(0.3)
    assert a.polling and not b.polling
    await a.stop()  # its lock's connection closes: b's turn
    await _until(lambda: b.polling, "b polling")
    telegram.updates.append(_tap(7))
    await _until(lambda: b.stored == 1, "b stores")
    await b.stop()


async def test_an_update_ptb_cannot_read_is_dropped_with_a_line_and_confirmed(
    pg_pool: asyncpg.Pool, pg_dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    bad = {"update_id": 40, "message": "hi"}
    telegram = _Telegram([bad, _tap(41)])
    queue = UpdateQueue(pg_pool, "w0")
    poller = _poller(pg_dsn, queue, telegram)
    with caplog.at_level(logging.WARNING, logger="bot.workers.poller"):
        poller.start()
        try:
            await _until(lambda: 42 in telegram.offsets, "both confirmed")
        finally:
            await poller.stop()
    ids = [r["update_id"] for r in await pg_pool.fetch("SELECT update_id FROM work_updates")]
    assert ids == [41]
    [line] = [r.getMessage() for r in caplog.records]
    assert "update 40 dropped: not a Telegram update" in line and "Traceback" not in caplog.text


async def test_telegrams_refusals_are_waited_out_and_nothing_is_skipped(
    pg_pool: asyncpg.Pool, pg_dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    telegram = _Telegram([_tap(50)], errors=[NetworkError("reset"), NetworkError("reset")])
    queue = UpdateQueue(pg_pool, "w0")
    poller = _poller(pg_dsn, queue, telegram)
    with caplog.at_level(logging.WARNING, logger="bot.workers.poller"):
        poller.start()
        try:
            await _until(lambda: poller.stored == 1, "stored after the errors")
        finally:
            await poller.stop()
    assert telegram.offsets[:3] == [0, 0, 0]  # tried again from the same place
    assert sum("getUpdates failed" in r.getMessage() for r in caplog.records) == 2
    assert "Traceback" not in caplog.text


class _Local:
    """The poller's own worker, as the inbox sees it (inbox.LocalWorker), with room to spare."""

    def __init__(self) -> None:
        self.taken: list[int] = []

    def room(self) -> int:
        return 64

    def take(self, updates: list[Claimed]) -> None:
        self.taken += [u.update_id for u in updates]

    def wake(self, updates: int, keys: Sequence[str] = ()) -> None:
        pass

    def closing(self) -> list[int]:
        return []

    def closed(self, update_ids: list[int]) -> None:
        pass


async def test_the_pollers_own_worker_takes_its_share_and_leaves_the_rest_to_the_others(
    pg_pool: asyncpg.Pool, pg_dsn: str
) -> None:
    """Every update reaches the poller: with its free slots alone it would take them all and
    leave the other workers idle while its core is the bottleneck (issue 32)."""
    await pg_pool.execute("INSERT INTO work_workers (name) VALUES ('w0'), ('w1')")
    telegram = _Telegram([_tap(i) for i in range(60, 66)])
    local = _Local()
    queue = UpdateQueue(pg_pool, "w0", local=local)
    poller = _poller(pg_dsn, queue, telegram)
    poller.start()
    try:
        await _until(lambda: poller.stored == 6, "the batch stored")
    finally:
        await poller.stop()
    assert local.taken == [60, 61, 62]  # half: two workers alive
    others = await UpdateQueue(pg_pool, "w1").claim(10)
    assert [c.update_id for c in others] == [63, 64, 65]


async def test_a_failed_webhook_deletion_is_one_line_and_polling_goes_on(
    pg_pool: asyncpg.Pool, pg_dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    telegram = _Telegram([_tap(70)])
    queue = UpdateQueue(pg_pool, "w0")

    async def delete_webhook() -> None:
        raise NetworkError("connection reset")

    put = Front(queue, "secret").put
    poller = Poller(PollLock(pg_dsn, "w0"), queue, telegram.fetch, put=put, prepare=delete_webhook)
    with caplog.at_level(logging.WARNING, logger="bot.workers.poller"):
        poller.start()
        try:
            await _until(lambda: poller.stored == 1, "stored")
        finally:
            await poller.stop()
    assert "could not delete the webhook (NetworkError: connection reset)" in caplog.text
    assert "Traceback" not in caplog.text
