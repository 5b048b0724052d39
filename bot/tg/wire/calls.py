"""Hot-path Bot API calls whose results nobody reads, made without building PTB objects.

`bot.send_message` and `edit_message_text` turn Telegram's answer into a `Message` (its chat,
sender, entities and keyboard, each a frozen object): CPU spent on every question, explanation,
answered-question edit and reveal for an object nobody looks at. `Bot.do_api_request(...,
return_type=None)` is PTB's public way to call a method and get the JSON instead: the same
request class, rate limiter (`ExtBot` routes it through `BaseRateLimiter` like any call) and
error mapping. What PTB's wrappers added and these must add themselves: `parse_mode` (the
`Defaults` are not applied to raw calls; every quizbot screen is HTML).

Keyboards go as plain dicts: `InlineKeyboardMarkup.to_dict()` walks every optional field of every
button (≈ 35 µs for four buttons); a button with callback data can have no other action (Telegram
takes exactly one), so text and data are all it holds.

Method names are lower case on purpose: the Bot API's are case-insensitive, and PTB warns when
`do_api_request` gets the name of a method it has a wrapper for (`sendMessage`).
"""

from __future__ import annotations

from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode

HTML = ParseMode.HTML.value


def _button(button: InlineKeyboardButton) -> dict[str, Any]:
    if (
        isinstance(button.callback_data, str)
        and getattr(button, "style", None) is None
        and getattr(button, "icon_custom_emoji_id", None) is None
        and not button.api_kwargs
    ):
        return {"text": button.text, "callback_data": button.callback_data}
    return button.to_dict()  # a link, a web app...: PTB knows every field


def keyboard_json(keyboard: InlineKeyboardMarkup) -> dict[str, Any]:
    """The markup as Telegram's JSON, equal to `keyboard.to_dict()`."""
    return {"inline_keyboard": [[_button(b) for b in row] for row in keyboard.inline_keyboard]}


async def _call(bot: Bot, method: str, kwargs: dict[str, Any]) -> Any:
    return await bot.do_api_request(method, api_kwargs=kwargs, return_type=None)


async def answer_query(
    bot: Bot, query_id: str, text: str | None = None, *, show_alert: bool = False
) -> None:
    """answerCallbackQuery: the popup (or just stop the client's spinner when `text` is None)."""
    kwargs: dict[str, Any] = {"callback_query_id": query_id}
    if text:
        kwargs["text"] = text
    if show_alert:
        kwargs["show_alert"] = True
    await _call(bot, "answercallbackquery", kwargs)


async def send_text(
    bot: Bot,
    chat_id: int,
    text: str,
    keyboard: InlineKeyboardMarkup | None = None,
    *,
    thread: int = 0,
) -> int:
    """sendMessage in HTML, in forum topic `thread` (0: none); the new message's id (all a
    caller ever needs of it)."""
    kwargs: dict[str, Any] = {"chat_id": chat_id, "text": text, "parse_mode": HTML}
    if thread:
        kwargs["message_thread_id"] = thread
    if keyboard is not None:
        kwargs["reply_markup"] = keyboard_json(keyboard)
    result = await _call(bot, "sendmessage", kwargs)
    return int(result["message_id"])


async def edit_text(
    bot: Bot,
    chat_id: int,
    message_id: int,
    text: str,
    keyboard: InlineKeyboardMarkup | None = None,
) -> None:
    """editMessageText in HTML; without a keyboard, Telegram removes the message's one."""
    kwargs: dict[str, Any] = {
        "chat_id": chat_id,
        "message_id": message_id,
        "text": text,
        "parse_mode": HTML,
    }
    if keyboard is not None:
        kwargs["reply_markup"] = keyboard_json(keyboard)
    await _call(bot, "editmessagetext", kwargs)


async def drop_keyboard(bot: Bot, chat_id: int, message_id: int) -> None:
    """editMessageReplyMarkup without a markup: the buttons go, the text stays."""
    await _call(bot, "editmessagereplymarkup", {"chat_id": chat_id, "message_id": message_id})


async def send_force_reply(bot: Bot, chat_id: int, text: str, placeholder: str) -> int:
    """sendMessage with a ForceReply: the client opens a reply to it, showing `placeholder` in
    the input field. Such a message can never be edited (Telegram edits only messages without
    markup or with an inline keyboard): delete it once it served."""
    markup = {"force_reply": True, "input_field_placeholder": placeholder}
    kwargs: dict[str, Any] = {
        "chat_id": chat_id,
        "text": text,
        "parse_mode": HTML,
        "reply_markup": markup,
    }
    result = await _call(bot, "sendmessage", kwargs)
    return int(result["message_id"])


async def delete_message(bot: Bot, chat_id: int, message_id: int) -> None:
    await _call(bot, "deletemessage", {"chat_id": chat_id, "message_id": message_id})


async def edit_caption(
    bot: Bot,
    chat_id: int,
    message_id: int,
    caption: str,
    keyboard: InlineKeyboardMarkup | None = None,
) -> None:
    """editMessageCaption in HTML: a photo's caption (a question sent as a captioned photo)."""
    kwargs: dict[str, Any] = {
        "chat_id": chat_id,
        "message_id": message_id,
        "caption": caption,
        "parse_mode": HTML,
    }
    if keyboard is not None:
        kwargs["reply_markup"] = keyboard_json(keyboard)
    await _call(bot, "editmessagecaption", kwargs)
