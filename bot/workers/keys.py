"""The ordering key of an update: updates with one key are handled one after the other.

What must not race: two updates of one private chat (a learner's taps and commands), and a
group's commands and membership changes. What may run side by side: different chats, and the
taps of different members in one group (a 10,000-member group answering at once is a thousand
taps a second; serialising them per group would make one group one worker's queue). So a tap in
a group is keyed by group and member; everything else with a chat by its chat; the rest (inline
queries, poll answers) by its user.
"""

from __future__ import annotations

from typing import Any

_CHAT_FIELDS = (
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


def ordering_key(update: dict[str, Any]) -> str:
    """`c<chat>`, `c<group>:u<member>` for a tap in a group, `u<user>`, or `x<update>`."""
    query = update.get("callback_query")
    if isinstance(query, dict):
        user = _id(query.get("from"))
        chat = _id(_get(query.get("message"), "chat"))
        if chat is None or chat == user:
            return f"c{user}" if user is not None else f"x{update.get('update_id')}"
        return f"c{chat}:u{user}"
    for field in _CHAT_FIELDS:
        chat = _id(_get(update.get(field), "chat"))
        if chat is not None:
            return f"c{chat}"
    for value in update.values():
        user = _id(_get(value, "from")) or _id(_get(value, "user"))
        if user is not None:
            return f"u{user}"
    return f"x{update.get('update_id')}"


def _get(obj: object, name: str) -> object:
    return obj.get(name) if isinstance(obj, dict) else None


def _id(obj: object) -> int | None:
    value = _get(obj, "id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None
