"""The bot's own settings and its update channel (getUpdates, webhooks)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from .. import commands, errors
from ..errors import ApiError
from ..params import Params
from ..serialize import me_json
from ..world import World
from .registry import method

WEBHOOK_PORTS = frozenset({80, 88, 443, 8443})  # the only ports Telegram delivers to
SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")


@method("getMe")
async def get_me(world: World, p: Params) -> dict[str, Any]:
    return me_json(world.bot, inline=world.supports_inline_queries)


@method("getUpdates")
async def get_updates(world: World, p: Params) -> list[dict[str, Any]]:
    if world.webhook is not None:
        raise ApiError(
            409,
            "Conflict: can't use getUpdates method while webhook is active; "
            "use deleteWebhook to delete the webhook first",
        )
    world.updates.set_allowed(p.get_json("allowed_updates"))
    limit = min(max(p.get_int("limit", 100) or 100, 1), 100)
    timeout = max(p.get_int("timeout", 0) or 0, 0)
    return await world.updates.get(p.get_int("offset", 0) or 0, limit, timeout)


@method("setWebhook")
async def set_webhook(world: World, p: Params) -> bool:
    """Recorded only: the emulator never POSTs to the URL (bots under test poll)."""
    url = p.get_str("url") or ""
    if not url:
        world.webhook = None
        return True
    if not url.startswith("https://"):
        raise errors.bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    try:
        port = urlsplit(url).port or 443
    except ValueError:
        raise errors.bad_request("bad webhook: Wrong port number specified in the URL") from None
    if port not in WEBHOOK_PORTS:
        raise errors.bad_request(
            "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
        )
    secret = p.get_str("secret_token") or ""
    if not SECRET_TOKEN.fullmatch(secret) and secret:
        # Telegram's words for a forbidden character; for one over 256 characters the reports
        # we found say nothing, so the same words are an assumption there.
        raise errors.bad_request("secret token contains unallowed characters")
    world.webhook = {
        "url": url,
        "allowed_updates": p.get_json("allowed_updates"),
        "max_connections": p.get_int("max_connections", 40) or 40,  # Telegram's default
    }
    if p.get_bool("drop_pending_updates"):
        world.updates.clear()
    return True


@method("deleteWebhook")
async def delete_webhook(world: World, p: Params) -> bool:
    world.webhook = None
    if p.get_bool("drop_pending_updates"):
        world.updates.clear()
    return True


@method("getWebhookInfo")
async def get_webhook_info(world: World, p: Params) -> dict[str, Any]:
    info: dict[str, Any] = {
        "url": (world.webhook or {}).get("url", ""),
        "has_custom_certificate": False,
        "pending_update_count": len(world.updates),
    }
    if world.webhook and world.webhook.get("allowed_updates"):
        info["allowed_updates"] = world.webhook["allowed_updates"]
    if world.webhook:
        info["max_connections"] = world.webhook["max_connections"]
    return info


def _menu_key(world: World, p: Params) -> tuple[commands.ScopeKey, str]:
    key = commands.scope_key(p.get_json("scope"))
    chat_id = dict(key).get("chat_id")
    if chat_id is not None:
        world.chat(chat_id)
    return key, commands.language(p.get_str("language_code"))


@method("setMyCommands")
async def set_my_commands(world: World, p: Params) -> bool:
    checked = commands.validate(p.get_json("commands"))
    key = _menu_key(world, p)
    if checked:
        world.commands[key] = checked
    else:
        world.commands.pop(key, None)
    return True


@method("getMyCommands")
async def get_my_commands(world: World, p: Params) -> list[dict[str, str]]:
    return list(world.commands.get(_menu_key(world, p), []))


@method("deleteMyCommands")
async def delete_my_commands(world: World, p: Params) -> bool:
    world.commands.pop(_menu_key(world, p), None)
    return True


def _set_text(store: dict[str, str], p: Params, name: str, limit: int) -> bool:
    text = p.get_str(name) or ""
    if len(text) > limit:
        raise errors.bad_request(f"{name.upper()}_INVALID")
    lang = commands.language(p.get_str("language_code"))
    if text:
        store[lang] = text
    else:
        store.pop(lang, None)
    return True


@method("setMyDescription")
async def set_my_description(world: World, p: Params) -> bool:
    return _set_text(world.descriptions, p, "description", 512)


@method("getMyDescription")
async def get_my_description(world: World, p: Params) -> dict[str, str]:
    lang = commands.language(p.get_str("language_code"))
    return {"description": world.descriptions.get(lang, "")}


@method("setMyShortDescription")
async def set_my_short_description(world: World, p: Params) -> bool:
    return _set_text(world.short_descriptions, p, "short_description", 120)


@method("getMyShortDescription")
async def get_my_short_description(world: World, p: Params) -> dict[str, str]:
    lang = commands.language(p.get_str("language_code"))
    return {"short_description": world.short_descriptions.get(lang, "")}


@method("setChatMenuButton")
async def set_chat_menu_button(world: World, p: Params) -> bool:
    chat_id = p.get_int("chat_id")
    if chat_id is not None:
        world.chat(chat_id)
    world.menu_buttons[chat_id] = p.get_json("menu_button") or {"type": "default"}
    return True


@method("getChatMenuButton")
async def get_chat_menu_button(world: World, p: Params) -> dict[str, Any]:
    chat_id = p.get_int("chat_id")
    found = world.menu_buttons.get(chat_id) or world.menu_buttons.get(None)
    return found or {"type": "commands"}


@method("logOut")
async def log_out(world: World, p: Params) -> bool:
    return True


@method("close")
async def close(world: World, p: Params) -> bool:
    return True
