"""Sending, editing and deleting messages; answering taps."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import errors
from ..markup import caption_text, message_text, reply_markup
from ..params import Params, Upload
from ..state import ChatState, EmuMessage
from ..world import CallbackAnswer, World
from .registry import method

DELETE_WINDOW = 48 * 3600  # seconds a message stays deletable

CHAT_ACTIONS = frozenset(
    [
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    ]
)


def sendable(world: World, p: Params) -> ChatState:
    chat = world.chat(p.chat_id()).for_bot_to_send()
    if chat.bot_status == "restricted":
        raise errors.bad_request("not enough rights to send text messages to the chat")
    return chat


def flood(world: World, chat: ChatState, *, edit: bool = False) -> None:
    retry_after = world.flood.acquire(chat.id, chat.type == "private", edit=edit)
    if retry_after is not None:
        raise errors.too_many_requests(retry_after)


def thread(p: Params, chat: ChatState, replied: int | None) -> int | None:
    """The topic a sent message lands in: `message_thread_id` if given (refused unless an open
    topic of a forum), else the topic of the message it replies to, else General (none)."""
    given = p.get_int("message_thread_id")
    if given is not None:
        return chat.thread_for_bot(given)
    if replied is not None:
        return chat.thread_for_bot(chat.messages[replied].thread_id)
    return None


def reply_to(p: Params, chat: ChatState) -> int | None:
    parameters = p.get_json("reply_parameters") or {}
    target = parameters.get("message_id") if isinstance(parameters, dict) else None
    target = target if target is not None else p.get_int("reply_to_message_id")
    if target is None:
        return None
    replied = chat.messages.get(int(target))
    if replied is None or replied.deleted:
        if parameters.get("allow_sending_without_reply") or p.get_bool(
            "allow_sending_without_reply"
        ):
            return None
        raise errors.bad_request("message to be replied not found")
    return replied.message_id


@method("sendMessage")
async def send_message(world: World, p: Params) -> dict[str, Any]:
    chat = sendable(world, p)
    formatted, source = message_text(p, strict_ampersand=world.strict_ampersand)
    markup, buttons = reply_markup(p, private=chat.type == "private")
    replied = reply_to(p, chat)
    topic = thread(p, chat, replied)
    flood(world, chat)
    msg = chat.store(
        EmuMessage(
            chat.id, chat.new_message_id(), formatted.text, source, True, world.bot.id,
            world.now(), formatted.entities, buttons, markup, reply_to_message_id=replied,
            thread_id=topic,
        )
    )  # fmt: skip
    return world.message_json(msg)


@method("sendDocument")
async def send_document(world: World, p: Params) -> dict[str, Any]:
    """A file uploaded (multipart) or sent again by file_id; its caption is checked and parsed
    as a photo's (HTML with parse_mode, up to 1024 characters)."""
    chat = sendable(world, p)
    document = p.raw.get("document")
    if isinstance(document, Upload):
        file_id = world.new_file_id("DOC")
        world.files[file_id] = document
    elif isinstance(document, str) and document in world.files:
        file_id = document
    elif document in (None, ""):
        raise errors.bad_request("there is no document in the request")
    else:
        raise errors.bad_request("wrong remote file identifier specified")
    upload = world.files[file_id]
    info = {"file_id": file_id, "file_unique_id": f"u{file_id}", "file_name": upload.filename,
            "mime_type": upload.content_type, "file_size": len(upload.data)}  # fmt: skip
    formatted, source = caption_text(p, strict_ampersand=world.strict_ampersand)
    topic = thread(p, chat, reply_to(p, chat))
    flood(world, chat)
    msg = chat.store(
        EmuMessage(
            chat.id, chat.new_message_id(), formatted.text, source, True, world.bot.id,
            world.now(), formatted.entities, document=info, thread_id=topic,
        )
    )  # fmt: skip
    return world.message_json(msg)


def editable(world: World, p: Params) -> tuple[ChatState, EmuMessage]:
    if "inline_message_id" in p:
        raise errors.bad_request("the emulator does not emulate inline messages")
    chat = world.chat(p.chat_id()).for_bot_to_send()
    message_id = p.get_int("message_id")
    if message_id is None:
        raise errors.bad_request("message identifier is not specified")
    msg = chat.message(message_id, "message to edit not found")
    if not msg.from_bot or msg.service:
        raise errors.bad_request("message can't be edited")
    if msg.reply_markup is not None and "inline_keyboard" not in msg.reply_markup:
        # Telegram edits only messages without markup or with an inline keyboard: one sent
        # with ForceReply or a reply keyboard is frozen (it can still be deleted).
        raise errors.bad_request("message can't be edited")
    return chat, msg


def commit_edit(world: World, chat: ChatState, old: EmuMessage, new: EmuMessage) -> dict[str, Any]:
    if (new.text, new.entities, new.reply_markup) == (old.text, old.entities, old.reply_markup):
        raise errors.bad_request(errors.NOT_MODIFIED)
    flood(world, chat, edit=True)
    version = replace(new, edit_date=world.now(), history=(*old.history, replace(old, history=())))
    return world.message_json(chat.store(version))


@method("editMessageText")
async def edit_message_text(world: World, p: Params) -> dict[str, Any]:
    chat, old = editable(world, p)
    if old.media:
        raise errors.bad_request("there is no text in the message to edit")
    formatted, source = message_text(p, strict_ampersand=world.strict_ampersand, edit=True)
    # Without reply_markup Telegram removes the inline keyboard: bots that forget it lose buttons.
    markup, buttons = reply_markup(p, private=chat.type == "private", edit=True)
    new = replace(old, text=formatted.text, entities=formatted.entities, html=source,
                  reply_markup=markup, buttons=buttons)  # fmt: skip
    return commit_edit(world, chat, old, new)


@method("editMessageReplyMarkup")
async def edit_message_reply_markup(world: World, p: Params) -> dict[str, Any]:
    chat, old = editable(world, p)
    markup, buttons = reply_markup(p, private=chat.type == "private", edit=True)
    return commit_edit(world, chat, old, replace(old, reply_markup=markup, buttons=buttons))


@method("deleteMessage")
async def delete_message(world: World, p: Params) -> bool:
    chat = world.chat(p.chat_id()).for_bot_to_send()
    msg = chat.message(p.get_int("message_id", required=True) or 0, "message to delete not found")
    bot_is_admin = chat.bot_status in ("administrator", "creator")
    if not msg.from_bot and chat.type != "private" and not bot_is_admin:
        raise errors.bad_request("message can't be deleted")
    # "A message can only be deleted if it was sent less than 48 hours ago" (Bot API); a
    # supergroup's admin may delete older ones. Telegram's words for it vary in reports
    # ("message can't be deleted" too); bots should not match either.
    old_allowed = chat.type == "supergroup" and bot_is_admin
    if world.now() - msg.date >= DELETE_WINDOW and not old_allowed:
        raise errors.bad_request("message can't be deleted for everyone")
    world.delete(chat, msg)
    return True


@method("answerCallbackQuery")
async def answer_callback_query(world: World, p: Params) -> bool:
    text = p.get_str("text")
    if text is not None and len(text) > 200:
        raise errors.bad_request("MESSAGE_TOO_LONG")
    world.answer(
        p.get_str("callback_query_id"),
        CallbackAnswer(
            text or None,
            p.get_bool("show_alert"),
            p.get_str("url"),
            p.get_int("cache_time", 0) or 0,
        ),
    )
    return True


@method("sendChatAction")
async def send_chat_action(world: World, p: Params) -> bool:
    sendable(world, p)
    if p.get_str("action") not in CHAT_ACTIONS:
        raise errors.bad_request("wrong parameter action in request")
    return True
