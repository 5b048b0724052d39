"""The duplicate-update guard's key: a re-delivery (same id, same content) is the same update; an
id used again for another update (a restarted emulator or sandbox, Telegram's random ids after a
week without updates) is not. The sandbox test restarts on the same database and fails without."""

from __future__ import annotations

from typing import Any

from telegram import Update

from bot.tg.repeated_updates import update_key


def _message(update_id: int, message_id: int, date: int, text: str = "/start") -> Update:
    data: dict[str, Any] = {
        "update_id": update_id,
        "message": {
            "message_id": message_id,
            "date": date,
            "chat": {"id": 7, "type": "private"},
            "from": {"id": 7, "is_bot": False, "first_name": "A"},
            "text": text,
        },
    }
    return Update.de_json(data, None)


def test_a_redelivery_has_the_same_key_and_a_reused_id_another() -> None:
    first = _message(1, 1, 1_790_000_000)
    assert update_key(first) == update_key(_message(1, 1, 1_790_000_000))
    assert update_key(first) != update_key(_message(1, 1, 1_790_000_009))  # a new session
    assert update_key(first) != update_key(_message(2, 1, 1_790_000_000))
