"""Content pictures as Telegram photos: uploaded once, then sent again by their file_id.

A screen that carries a picture (`Screen.photo`) is sent as a photo whose caption is the
screen's text when that fits Telegram's 1024 characters (one message, as a text question is);
otherwise the photo goes first, without a caption, and the text follows as a message of its own
that carries the buttons. Which of the two a question got is decided by `as_caption` alone, so
the later edits of the question (live count, answer, reveal) know what to edit without storing it.

file_ids: the first send uploads the bytes; the largest PhotoSize's file_id of Telegram's answer
is stored (migration 014, by file name and SHA-256) and sent from then on, across restarts. A
file_id Telegram refuses ("wrong file identifier", e.g. a database restored under another bot)
is dropped and the bytes are uploaded again. A picture that cannot be sent at all is replaced
by its alt text above the question, so the question is never lost.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, InputFile, Message
from telegram.error import BadRequest, NetworkError

from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.models import MediaFile
from bot.store.interface import Engine
from bot.store.media_ids import MediaIdStore
from bot.tg.screen_render import Screen
from bot.tg.topics import topic_gone
from bot.tg.wire import calls
from bot.tg.wire.captions import as_caption
from bot.tg.wire.retry import OnWire

log = logging.getLogger(__name__)


def with_alt(text: str, alt: str) -> str:
    """The text with the picture's alt text above it: what is sent when the picture cannot be."""
    if not alt:
        return text
    combined = f"🖼 <i>{html.escape(alt)}</i>\n\n{text}"
    return combined if len(combined) <= MESSAGE_MAX_CHARS else text


class PhotoSender:
    """Sends pictures, remembering their file_ids in the store."""

    def __init__(self, db: Engine, clock: Callable[[], float] = time.time) -> None:
        self.ids = MediaIdStore(db)
        self.clock = clock

    async def send(
        self,
        bot: Bot,
        chat_id: int,
        photo: MediaFile,
        caption: str | None = None,
        keyboard: InlineKeyboardMarkup | None = None,
        on_wire: OnWire | None = None,
        *,
        thread: int = 0,
    ) -> Message:
        """The sent photo message; raises what Telegram raises for anything but a stale id.
        `on_wire` runs before each attempt leaves (a group question's send-once record);
        `thread`: the forum topic (0: none)."""
        kwargs: dict[str, Any] = {"reply_markup": keyboard}
        if thread:
            kwargs["message_thread_id"] = thread
        if on_wire is not None:
            kwargs["rate_limit_args"] = on_wire  # an ExtBot's, as every bot of the app is
        if caption:
            kwargs["caption"] = caption
        known = await self.ids.file_id(photo.name, photo.sha256)
        if known is not None:
            try:
                return await bot.send_photo(chat_id, known, **kwargs)
            except BadRequest as exc:
                if "file identifier" not in str(exc).lower():
                    raise
                log.info("file_id of %s refused (%s): uploading it again", photo.name, exc)
                await self.ids.forget(photo.name, photo.sha256, known)
        data = await asyncio.to_thread(_read, photo.path)
        upload = InputFile(data, filename=PurePosixPath(photo.name).name)
        sent = await bot.send_photo(chat_id, upload, **kwargs)
        if sent.photo:
            await self.ids.remember(photo.name, photo.sha256, sent.photo[-1].file_id, self.clock())
        return sent


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


async def send_screen(
    bot: Bot,
    chat_id: int,
    screen: Screen,
    sender: PhotoSender | None,
    on_wire: OnWire | None = None,
    *,
    thread: int = 0,
) -> int:
    """Send a screen that may carry a picture; the id of the message holding its buttons
    (in forum topic `thread`; 0: none).

    A picture that fails (refused, or a network error after the retries) gives way to its alt
    text above the screen's text: the learner still gets the question. A chat that is gone
    (Forbidden, ChatMigrated) is the caller's to handle, as for any message."""
    text, keyboard, photo, alt = screen.text, screen.keyboard, screen.photo, screen.alt
    if photo is None or sender is None:
        return await calls.send_text(bot, chat_id, text, keyboard, thread=thread)
    caption = as_caption(text, photo)
    try:
        if caption:
            sent = await sender.send(bot, chat_id, photo, text, keyboard, on_wire, thread=thread)
        else:
            sent = await sender.send(bot, chat_id, photo, on_wire=on_wire, thread=thread)
    except NetworkError as exc:  # BadRequest is one too
        if topic_gone(exc):
            raise  # nowhere to post the alt text either: the caller ends what played there
        log.warning("picture %s not sent to %s: %s; alt text instead", photo.name, chat_id, exc)
        return await calls.send_text(bot, chat_id, with_alt(text, alt), keyboard, thread=thread)
    if caption:
        return sent.message_id
    return await calls.send_text(bot, chat_id, text, keyboard, thread=thread)
