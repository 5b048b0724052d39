"""Update shapes real Telegram (or a Bot API server of another version) sends that no simulated
user produces, posted raw (`Emulator.push_update`): each reaches a clear reply or a deliberate
ignore, never a stalled update loop."""

from __future__ import annotations

import logging

import orjson
import pytest

from bot.tg.handler_order import ALLOWED_UPDATES
from tests.e2e.harness import Harness

# What the handlers act on (bot/tg/handler_order.py): messages (commands, texts, files, service
# messages), taps, inline queries, the bot's own membership and members' (departures).
HANDLED = {"message", "callback_query", "inline_query", "my_chat_member", "chat_member"}


def old_poll_message(user_id: int, message_id: int, date: int) -> dict[str, object]:
    """A user's message carrying a poll, as a Bot API server older than 9.6 words it: no
    `persistent_id` on the options, no `allows_revoting`; python-telegram-bot 22 refuses to
    read it (a TypeError), as it will any shape it requires more of."""
    return {
        "message_id": message_id,
        "date": date,
        "chat": {"id": user_id, "type": "private", "first_name": "Awa"},
        "from": {"id": user_id, "is_bot": False, "first_name": "Awa"},
        "poll": {
            "id": "5301",
            "question": "Lunch?",
            "options": [{"text": "yes", "voter_count": 0}, {"text": "no", "voter_count": 0}],
            "total_voter_count": 0,
            "is_closed": False,
            "is_anonymous": True,
            "type": "regular",
            "allows_multiple_answers": False,
        },
    }


@pytest.mark.both_transports
async def test_an_update_the_library_cannot_read_is_skipped_and_the_next_ones_are_answered(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """PTB reads a getUpdates batch whole and, when one update fails, asks again from the same
    offset, forever: no later update of any chat was handled again and the log filled with
    CRITICAL lines as fast as the server answered."""
    user = harness.emu.user(3101, "Awa")
    await user.send("/help")
    await user.private.wait_for(lambda m: "/quizzes" in m.text)
    with caplog.at_level(logging.DEBUG):
        poisoned = harness.emu.push_update(
            "message", old_poll_message(user.id, 900, int(harness.clock()))
        )
        mark = user.private.mark()
        await user.send("/quizzes")
        await user.private.next_message(after=mark)
    skipped = [r for r in caplog.records if r.name == "bot.tg.wire.polling"]
    assert [r.levelno for r in skipped] == [logging.WARNING], caplog.text
    assert f"update {poisoned} (message)" in skipped[0].getMessage()
    refusals = [r for r in caplog.records if r.name == "telegram.ext.Updater"]
    assert len(refusals) <= 1, "the batch was read again and again"


async def test_the_bot_asks_telegram_only_for_the_updates_it_acts_on(harness: Harness) -> None:
    """It asked for every kind but edits: reactions (sent to an administrator bot for every
    reaction in its groups), polls, boosts, join requests, business messages, channel posts...,
    each an update sent, read and dropped."""
    assert set(ALLOWED_UPDATES) == HANDLED
    user = harness.emu.user(3102, "Awa")
    await user.send("/help")
    await user.private.wait_for(lambda m: "/quizzes" in m.text)  # it has polled by now
    asked = harness.emu.calls("getUpdates")[-1].get("allowed_updates")
    assert set(asked or ()) == HANDLED, asked


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        # A channel post naming a command (the bot an administrator of a channel).
        ("channel_post", {"message_id": 5, "date": 1_790_000_000, "text": "/quiz",
                          "chat": {"id": -1_009_999, "type": "channel", "title": "News"},
                          "entities": [{"offset": 0, "length": 5, "type": "bot_command"}]}),
        ("message_reaction", {"chat": {"id": 3103, "type": "private", "first_name": "Awa"},
                              "message_id": 1, "date": 1_790_000_000,
                              "user": {"id": 3103, "is_bot": False, "first_name": "Awa"},
                              "old_reaction": [],
                              "new_reaction": [{"type": "emoji", "emoji": "👍"}]}),
        ("a_type_telegram_adds_in_2030", {"anything": 1}),
    ],
)  # fmt: skip
async def test_an_update_of_a_type_never_asked_for_is_ignored_in_one_debug_line(
    harness: Harness, caplog: pytest.LogCaptureFixture, kind: str, payload: dict[str, object]
) -> None:
    """Sent anyway (a webhook another tool set with other allowed_updates): no handler takes
    it, no chat hears of it, and the log says so once, at debug, not a word above."""
    assert harness.bot is not None
    user = harness.emu.user(3103, "Awa")
    await user.send("/help")
    await user.private.wait_for(lambda m: "/quizzes" in m.text)
    mark = user.private.mark()
    update = {"update_id": 777_000 + len(kind), kind: payload}
    with caplog.at_level(logging.DEBUG, logger="bot"):
        await harness.bot.process_payload(orjson.dumps(update).decode())
    said = [r for r in caplog.records if r.name.startswith("bot") and r.levelno >= logging.INFO]
    assert said == [], caplog.text
    ignored = [r.getMessage() for r in caplog.records if r.name == "bot.tg.handler_order"]
    assert ignored == [f"update {update['update_id']} ({kind}): of a type the bot does not act on"]
    assert [m for m in user.private.messages if m.message_id >= mark.next_message_id] == []
