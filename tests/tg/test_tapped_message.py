"""What is left of an update once the formatting and buttons of a tapped message are dropped
(issue 32): everything a handler reads, and every entity of a message someone wrote."""

from __future__ import annotations

import copy

import orjson
from telegram import Bot, Update

from bot.tg.wire.tapped_message import UpdatesRequest, without_tapped_formatting

BOT = Bot("123:abc")
ENTITIES = [{"type": "bold", "offset": 0, "length": 4}, {"type": "code", "offset": 5, "length": 3}]
TAP = {
    "update_id": 7,
    "callback_query": {
        "id": "q1",
        "from": {"id": 42, "is_bot": False, "first_name": "Awa", "language_code": "fr"},
        "chat_instance": "c",
        "data": "a:12:3:1",
        "message": {
            "message_id": 9,
            "date": 1_700_000_000,
            "chat": {"id": 42, "type": "private"},
            "text": "Q1/8 abc",
            "entities": ENTITIES,
            "photo": [{"file_id": "f", "file_unique_id": "u", "width": 1, "height": 1}],
            "caption_entities": ENTITIES,
            "reply_markup": {"inline_keyboard": [[{"text": "A", "callback_data": "a:12:3:0"}]]},
        },
    },
}
COMMAND = {
    "update_id": 8,
    "message": {
        "message_id": 10,
        "date": 1_700_000_001,
        "chat": {"id": 42, "type": "private"},
        "from": {"id": 42, "is_bot": False, "first_name": "Awa"},
        "text": "/start quiz",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
    },
}


def test_a_tap_keeps_what_handlers_read_and_loses_only_the_tapped_messages_entities() -> None:
    before = Update.de_json(copy.deepcopy(TAP), BOT)
    after = Update.de_json(without_tapped_formatting(copy.deepcopy(TAP)), BOT)
    assert before.callback_query is not None and after.callback_query is not None
    shown, kept = before.callback_query.message, after.callback_query.message
    assert shown is not None and kept is not None
    assert shown.entities and not kept.entities and not kept.caption_entities
    assert after.callback_query.data == before.callback_query.data
    assert after.callback_query.from_user == before.callback_query.from_user
    for field in ("message_id", "date", "chat", "text", "photo"):
        assert getattr(kept, field) == getattr(shown, field), field
    assert shown.reply_markup is not None and shown.reply_markup.inline_keyboard
    assert kept.reply_markup is not None and not kept.reply_markup.inline_keyboard  # still one


def test_a_tapped_message_without_a_keyboard_still_has_none() -> None:
    bare = copy.deepcopy(TAP)
    del bare["callback_query"]["message"]["reply_markup"]
    read = Update.de_json(without_tapped_formatting(bare), BOT)
    assert read.callback_query is not None and read.callback_query.message is not None
    assert read.callback_query.message.reply_markup is None


def test_a_message_someone_wrote_keeps_its_entities() -> None:
    assert without_tapped_formatting(copy.deepcopy(COMMAND)) == COMMAND
    assert without_tapped_formatting(["not", "an", "update"]) == ["not", "an", "update"]
    odd = {"update_id": 1, "callback_query": {"id": "x", "message": "not an object"}}
    assert without_tapped_formatting(copy.deepcopy(odd)) == odd


def test_long_polling_drops_them_from_every_update_it_gets() -> None:
    payload = orjson.dumps({"ok": True, "result": [copy.deepcopy(TAP), copy.deepcopy(COMMAND)]})
    tap, command = UpdatesRequest().parse_json_payload(payload)["result"]
    assert "entities" not in tap["callback_query"]["message"]
    assert command == COMMAND
