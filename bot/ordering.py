"""The ordering key of an update, written once: updates with one key are handled one after the
other, updates with different keys may run side by side. One process orders by it in memory
(bot/tg/wire/update_order.py, over PTB's `Update`); several workers order by it in their
PostgreSQL inbox (bot/workers/front.py, over the update's JSON). Each side only reads the facts
from its own form of the update; the rule is `ordering_key`.

What must not race: two updates of one private chat (a learner's taps and commands), and a
group's commands and membership changes. What may run side by side: different chats, and the
taps of different members in one group (a 10,000-member group answering at once is a thousand
taps a second; serialising them per group would make one group one worker's queue). So a tap in
a group is keyed by group and member; everything else with a chat by its chat; the rest by its
user; and an update with none of these (a poll's new state) has no key: nothing to keep it in
order with.

Inline queries (and poll answers) carry a user and no chat. They are keyed `u<user>`, apart from
the user's private chat `c<user>`, not in its turn (the two sides used to differ here: one
process put them in the private chat's turn, the workers did not). Neither side needs that
turn: an inline query changes nothing a chat's update reads (it searches the catalogue and
answers with `answerInlineQuery`; besides, it only notes who the user is, as an update from
any of their chats does), and reads only the learner's language, for one keystroke's results.
And both sides need it out of that turn: Telegram drops an answer after 10 seconds, so a query
must not wait behind a chat's backlog (an exam's cards, a reload), and a burst of keystrokes
must not hold the learner's taps in their chat. Two queries of one user still keep their order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The fields of an update (Bot API JSON) that carry a chat, besides a callback query's message.
CHAT_FIELDS = (
    "message",
    "edited_message",
    "channel_post",
    "edited_channel_post",
    "my_chat_member",
    "chat_member",
    "chat_join_request",
    "message_reaction",
    "message_reaction_count",
    "chat_boost",
    "removed_chat_boost",
)


def ordering_key(*, tapped: bool, chat: int | None, user: int | None) -> str | None:
    """`c<chat>`, `c<group>:u<member>` for a tap in a group, `u<user>`, or None.

    `tapped`: a callback query, with `chat` its message's chat (None: an inline message's
    button) and `user` who tapped. Else `chat` is the update's chat, if any, and `user` its
    sender, if any."""
    if tapped:
        if user is None:
            return None
        return f"c{user}" if chat is None or chat == user else f"c{chat}:u{user}"
    if chat is not None:
        return f"c{chat}"
    return f"u{user}" if user is not None else None


def json_ordering_key(update: Mapping[str, Any]) -> str:
    """The key of an update as Telegram sent it (JSON); `x<update id>` when it has none, so the
    inbox keeps it in order with nothing else."""
    query = update.get("callback_query")
    if isinstance(query, dict):
        key = ordering_key(
            tapped=True, chat=_id(_get(query.get("message"), "chat")), user=_id(query.get("from"))
        )
    else:
        chat = next(
            (c for f in CHAT_FIELDS if (c := _id(_get(update.get(f), "chat"))) is not None), None
        )
        senders = (_id(_get(v, "from")) or _id(_get(v, "user")) for v in update.values())
        user = next((u for u in senders if u is not None), None)
        key = ordering_key(tapped=False, chat=chat, user=user)
    return key if key is not None else f"x{update.get('update_id')}"


def _get(obj: object, name: str) -> object:
    return obj.get(name) if isinstance(obj, dict) else None


def _id(obj: object) -> int | None:
    value = _get(obj, "id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None
