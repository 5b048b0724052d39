"""Showing a `Screen` (bot/tg/screen_render.py) in a chat, for every handler, private or group:
send it, reply under a tapped message, edit the tapped message, answer a tap, drop a keyboard.

Each takes the update's own objects and goes through `bot/tg/wire/calls.py` (the limiter's
retries and pacing). What Telegram refuses here (a message gone or unchanged, a tap too old to
answer) is logged in one line and does not stop the work that follows; `edit` says so (False)
when the screen carried the only way on.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Message
from telegram.error import BadRequest

from bot.tg.screen_render import Screen
from bot.tg.topics import reply_thread
from bot.tg.wire import calls
from bot.tg.wire.captions import fits_caption
from bot.tg.wire.photos import PhotoSender, send_screen

log = logging.getLogger(__name__)


async def send(message: Message, screen: Screen, photos: PhotoSender | None = None) -> int:
    """A new message in the chat of `message`; its id (a round remembers its open card's). With
    a picture, the id of the message carrying the screen's buttons (bot/tg/wire/photos.py). In a
    forum, in the topic of the update being handled (bot/tg/topics.py)."""
    bot, chat_id = message.get_bot(), message.chat_id
    thread = reply_thread(chat_id)
    if screen.photo is not None and photos is not None:
        return await send_screen(bot, chat_id, screen, photos, thread=thread)
    return await calls.send_text(bot, chat_id, screen.text, screen.keyboard, thread=thread)


async def acknowledge(
    query: CallbackQuery, text: str | None = None, *, show_alert: bool = False
) -> None:
    """Answer a callback query (private, group or review); one Telegram no longer accepts (too
    old) must not stop the work that follows, such as showing the explanation of an answer
    already stored, or starting the quiz an admin picked. Retries are the limiter's
    (`bot/tg/wire/retry.py`)."""
    try:
        await calls.answer_query(query.get_bot(), query.id, text, show_alert=show_alert)
    except BadRequest as exc:
        log.info("callback answer refused: %s", exc)


async def edit(query: CallbackQuery, screen: Screen) -> bool:
    """Edit the tapped message; an edit Telegram refuses (gone, unchanged) is not worth failing,
    but the caller learns of it (False) when the screen carries the only way on."""
    shown = query.message
    try:
        if shown is None:  # an inline message: only PTB's wrapper knows its id
            await query.edit_message_text(screen.text, reply_markup=screen.keyboard)
        elif is_photo(shown):  # a question sent as a captioned photo: its caption is edited
            if not fits_caption(screen.text):
                log.info("edit skipped: %d characters do not fit a caption", len(screen.text))
                return False
            bot, chat_id, message_id = query.get_bot(), shown.chat.id, shown.message_id
            await calls.edit_caption(bot, chat_id, message_id, screen.text, screen.keyboard)
        else:
            bot, chat_id, message_id = query.get_bot(), shown.chat.id, shown.message_id
            await calls.edit_text(bot, chat_id, message_id, screen.text, screen.keyboard)
    except BadRequest as exc:
        log.info("edit refused: %s", exc)
        return False
    return True


def is_photo(message: object) -> bool:
    """A question (or card) sent as a captioned photo: its caption is what an edit changes."""
    return isinstance(message, Message) and bool(message.photo)


async def drop_keyboard(query: CallbackQuery) -> None:
    shown = query.message
    try:
        if shown is None:
            await query.edit_message_reply_markup(None)
        else:
            bot, chat_id, message_id = query.get_bot(), shown.chat.id, shown.message_id
            await calls.drop_keyboard(bot, chat_id, message_id)
    except BadRequest as exc:
        log.info("keyboard removal refused: %s", exc)


async def reply(query: CallbackQuery, screen: Screen, photos: PhotoSender | None = None) -> None:
    """A new message under the tapped one (a question, a result, an explanation)."""
    if isinstance(query.message, Message):
        await send(query.message, screen, photos)
