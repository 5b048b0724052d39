"""Per-chat order of concurrent updates (bot/tg/wire/update_order.py): one chat's updates run one
after the other in arrival order while another chat's update runs meanwhile; a chat's backlog
holds one running slot only; the keys of idle chats are dropped."""

from __future__ import annotations

import asyncio
from typing import Any

from telegram import Update

from bot.tg.wire.update_order import PerChatUpdateProcessor, order_key


def _message(update_id: int, chat_id: int) -> Update:
    data: dict[str, Any] = {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": 1_790_000_000,
            "chat": {"id": chat_id, "type": "private"},
            "from": {"id": chat_id, "is_bot": False, "first_name": "A"},
            "text": "/start",
        },
    }
    return Update.de_json(data, None)


def _inline_query(update_id: int, user_id: int) -> Update:
    data: dict[str, Any] = {
        "update_id": update_id,
        "inline_query": {
            "id": "q",
            "from": {"id": user_id, "is_bot": False, "first_name": "A"},
            "query": "",
            "offset": "",
        },
    }
    return Update.de_json(data, None)


def test_the_key_is_the_chat_else_the_user_else_none() -> None:
    assert order_key(_message(1, -100)) == "c-100"
    assert order_key(_inline_query(2, 42)) == "u42"
    assert order_key(Update(3)) is None
    assert order_key("not an update") is None


async def test_an_inline_query_does_not_wait_for_its_users_private_chat() -> None:
    """Telegram drops an inline answer after 10 s: a search must not queue behind the chat's
    backlog (bot/ordering.py), while the chat's own updates still do."""
    processor = PerChatUpdateProcessor(running=8)
    await processor.initialize()
    chat_may_end = asyncio.Event()
    answered: list[str] = []

    async def busy_chat() -> None:
        await chat_may_end.wait()

    async def search() -> None:
        answered.append("inline")

    chat = asyncio.create_task(processor.process_update(_message(1, 42), busy_chat()))
    await asyncio.sleep(0)
    await asyncio.wait_for(processor.process_update(_inline_query(2, 42), search()), 5)
    assert answered == ["inline"] and not chat.done()
    chat_may_end.set()
    await chat


async def test_one_chats_updates_in_order_while_another_chat_proceeds() -> None:
    processor = PerChatUpdateProcessor(running=8)
    await processor.initialize()
    events: list[str] = []
    first_may_end = asyncio.Event()

    async def first() -> None:
        events.append("a1 start")
        await first_may_end.wait()
        events.append("a1 end")

    async def second() -> None:
        events.append("a2 start")

    async def other() -> None:
        events.append("b1")
        first_may_end.set()  # chat B ran while chat A's first update was still going

    tasks = [
        asyncio.create_task(processor.process_update(_message(1, 1), first())),
        asyncio.create_task(processor.process_update(_message(2, 1), second())),
        asyncio.create_task(processor.process_update(_message(3, 2), other())),
    ]
    await asyncio.gather(*tasks)
    assert events == ["a1 start", "b1", "a1 end", "a2 start"]
    assert processor.waiting_keys == 0  # idle keys pruned
    assert processor.current_concurrent_updates == 0
    await processor.shutdown()


async def test_one_chats_backlog_holds_one_slot_and_others_still_run() -> None:
    processor = PerChatUpdateProcessor(running=2)
    await processor.initialize()
    release = asyncio.Event()
    ran: list[int] = []

    async def busy(n: int) -> None:
        ran.append(n)
        await release.wait()

    async def other() -> None:
        ran.append(-1)
        release.set()

    backlog = [
        asyncio.create_task(processor.process_update(_message(n, 1), busy(n))) for n in range(10)
    ]
    late = asyncio.create_task(processor.process_update(_message(99, 2), other()))
    await asyncio.gather(*backlog, late)
    assert ran == [0, -1, *range(1, 10)]
    assert processor.waiting_keys == 0


async def test_a_failing_update_lets_the_next_of_its_chat_run() -> None:
    processor = PerChatUpdateProcessor(running=1)
    await processor.initialize()
    ran: list[str] = []

    async def fails() -> None:
        raise RuntimeError("handler failed")

    async def then() -> None:
        ran.append("next")

    failing = asyncio.create_task(processor.process_update(_message(1, 1), fails()))
    following = asyncio.create_task(processor.process_update(_message(2, 1), then()))
    results = await asyncio.gather(failing, following, return_exceptions=True)
    assert isinstance(results[0], RuntimeError) and ran == ["next"]
    assert processor.waiting_keys == 0


def _tap(update_id: int, chat_id: int, user_id: int) -> Update:
    data: dict[str, Any] = {
        "update_id": update_id,
        "callback_query": {
            "id": str(update_id),
            "from": {"id": user_id, "is_bot": False, "first_name": "A"},
            "chat_instance": "ci",
            "data": "g:1",
            "message": {
                "message_id": 5,
                "date": 1_790_000_000,
                "chat": {"id": chat_id, "type": "group" if chat_id < 0 else "private"},
                "text": "Question 1",
            },
        },
    }
    return Update.de_json(data, None)


def test_the_keys_are_the_workers_inbox_keys() -> None:
    """One rule in both modes: a group's taps per member, the rest per chat, else per user."""
    from bot.ordering import json_ordering_key

    updates = (_message(1, -100), _tap(2, -100, 7), _tap(3, 7, 7), _inline_query(4, 7))
    for update in updates:
        assert order_key(update) == json_ordering_key(update.to_dict())
    assert order_key(_tap(4, -100, 7)) != order_key(_tap(5, -100, 8))
    assert json_ordering_key(Update(6).to_dict()) == "x6"  # no key: in order with nothing
