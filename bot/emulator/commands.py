"""The bot's command menus, stored per (scope, language) and resolved the way Telegram picks one."""

from __future__ import annotations

import re
from typing import Any

from . import errors
from .state import ChatState, UserState

ScopeKey = tuple[tuple[str, Any], ...]

# scope type -> the fields that identify it
SCOPE_FIELDS: dict[str, tuple[str, ...]] = {
    "default": (),
    "all_private_chats": (),
    "all_group_chats": (),
    "all_chat_administrators": (),
    "chat": ("chat_id",),
    "chat_administrators": ("chat_id",),
    "chat_member": ("chat_id", "user_id"),
}
_COMMAND = re.compile(r"^[a-z0-9_]{1,32}$")
_LANGUAGE = re.compile(r"^([a-z]{2})?$")


def scope_key(scope: dict[str, Any] | None) -> ScopeKey:
    """A hashable, canonical form of a BotCommandScope (None is the default scope)."""
    scope = scope or {"type": "default"}
    kind = scope.get("type") if isinstance(scope, dict) else None
    if kind not in SCOPE_FIELDS:
        raise errors.bad_request("can't parse BotCommandScope: unknown scope type")
    try:
        return (("type", kind), *((name, int(scope[name])) for name in SCOPE_FIELDS[kind]))
    except (KeyError, TypeError, ValueError):
        raise errors.bad_request(f"can't parse BotCommandScope {kind}") from None


def language(code: str | None) -> str:
    code = code or ""
    if not _LANGUAGE.match(code):
        raise errors.bad_request("LANG_CODE_INVALID")
    return code


def validate(commands: Any) -> list[dict[str, str]]:
    """setMyCommands' list, checked as Telegram checks it."""
    if not isinstance(commands, list):
        raise errors.bad_request("can't parse commands JSON object")
    if len(commands) > 100:
        raise errors.bad_request("BOT_COMMANDS_TOO_MUCH")
    checked = []
    for item in commands:
        if not isinstance(item, dict):
            raise errors.bad_request("can't parse BotCommand")
        command, description = item.get("command"), item.get("description")
        if not isinstance(command, str) or not _COMMAND.match(command.removeprefix("/")):
            raise errors.bad_request("BOT_COMMAND_INVALID")
        if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
            raise errors.bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        checked.append({"command": command.removeprefix("/"), "description": description})
    return checked


def candidate_scopes(user: UserState, chat: ChatState, status: str) -> list[ScopeKey]:
    """Scopes from most to least specific, the order in which Telegram looks for a menu."""
    if chat.type == "private":
        return [
            (("type", "chat"), ("chat_id", chat.id)),
            (("type", "all_private_chats"),),
            (("type", "default"),),
        ]
    admin = status in ("creator", "administrator")
    scopes: list[ScopeKey] = [(("type", "chat_member"), ("chat_id", chat.id), ("user_id", user.id))]
    if admin:
        scopes.append((("type", "chat_administrators"), ("chat_id", chat.id)))
    scopes.append((("type", "chat"), ("chat_id", chat.id)))
    if admin:
        scopes.append((("type", "all_chat_administrators"),))
    scopes += [(("type", "all_group_chats"),), (("type", "default"),)]
    return scopes


def resolve(
    menus: dict[tuple[ScopeKey, str], list[dict[str, str]]],
    user: UserState,
    chat: ChatState,
    status: str,
) -> list[dict[str, str]]:
    """The menu this user sees in this chat: first scope with a list in their language or none."""
    lang = (user.language_code or "")[:2]
    for scope in candidate_scopes(user, chat, status):
        for key in ((scope, lang), (scope, "")):
            if key in menus:
                return menus[key]
    return []
