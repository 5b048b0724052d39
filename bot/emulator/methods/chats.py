"""Reading chats and their members."""

from __future__ import annotations

from typing import Any

from .. import errors
from ..params import Params
from ..serialize import chat_full_json, member_json
from ..world import World
from .registry import method


@method("getChat")
async def get_chat(world: World, p: Params) -> dict[str, Any]:
    chat = world.chat(p.chat_id())
    if chat.type != "private":
        chat.for_bot_to_send()  # a bot outside a group cannot read it
    return chat_full_json(chat)


@method("getChatMember")
async def get_chat_member(world: World, p: Params) -> dict[str, Any]:
    chat = world.chat(p.chat_id())
    user_id = p.get_int("user_id", required=True)
    user = world.users.get(user_id or 0)
    if user is None:
        raise errors.bad_request("user not found")
    if chat.type == "private":
        if user_id not in (chat.id, world.bot.id):
            raise errors.bad_request("user not found")
        return member_json(user, "member")
    chat.for_bot_to_send()
    status = chat.bot_status if user_id == world.bot.id else chat.members.get(user.id, "left")
    return member_json(user, status)


@method("getChatAdministrators")
async def get_chat_administrators(world: World, p: Params) -> list[dict[str, Any]]:
    chat = world.chat(p.chat_id())
    if chat.type == "private":
        raise errors.bad_request("there are no administrators in the private chat")
    chat.for_bot_to_send()
    admins = [
        member_json(world.users[uid], status)
        for uid, status in chat.members.items()
        if status in ("creator", "administrator") and uid in world.users
    ]
    if p.get_bool("return_bots") and chat.bot_status == "administrator":
        admins.append(member_json(world.bot, "administrator"))
    return admins


@method("getChatMemberCount")
async def get_chat_member_count(world: World, p: Params) -> int:
    chat = world.chat(p.chat_id())
    if chat.type == "private":
        return 2
    chat.for_bot_to_send()
    present = ("creator", "administrator", "member", "restricted")
    return 1 + sum(status in present for status in chat.members.values())


@method("leaveChat")
async def leave_chat(world: World, p: Params) -> bool:
    chat = world.chat(p.chat_id())
    if chat.type == "private":
        raise errors.bad_request("chat member status can't be changed in private chats")
    chat.for_bot_to_send()
    world.set_bot_status(chat, "left", world.bot)
    return True
