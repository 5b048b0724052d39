"""sendPhoto and editMessageCaption: photos uploaded (multipart) or sent again by file_id.

As on Telegram, an upload answers with several PhotoSizes, the largest last, each with a
file_id that `getFile` knows and that sends the photo again without uploading; an unknown (or
expired, see `Emulator.expire_file`) file_id is refused with Telegram's words, and bytes that
are no PNG or JPEG with IMAGE_PROCESS_FAILED. The caption is HTML like a text, up to 1024
characters, and only editMessageCaption changes it.
"""

from __future__ import annotations

import struct
from dataclasses import replace
from typing import Any

from .. import errors
from ..markup import caption_text, reply_markup
from ..params import Params, Upload
from ..state import EmuMessage
from ..world import World
from .messages import commit_edit, editable, flood, reply_to, sendable, thread
from .registry import method

WRONG_FILE_ID = "wrong file identifier/HTTP URL specified"
THUMB_SIDE = 90
PHOTO_SIDE = 1280  # Telegram keeps photos at most this long on their longer side


def picture_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG or baseline/progressive JPEG, from its header."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if not data.startswith(b"\xff\xd8"):
        return None
    i = 2
    while i + 9 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        if marker in (0xD9, 0xDA):
            return None
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        i += 2 + length
    return None


def _scaled(width: int, height: int, side: int) -> tuple[int, int]:
    longest = max(width, height, 1)
    if longest <= side:
        return width, height
    return max(1, round(width * side / longest)), max(1, round(height * side / longest))


def _new_photo(world: World, upload: Upload) -> tuple[dict[str, Any], ...]:
    size = picture_size(upload.data)
    if size is None or min(size) < 1:
        raise errors.bad_request("IMAGE_PROCESS_FAILED")
    sizes: list[dict[str, Any]] = []
    ids: list[str] = []
    for side in (THUMB_SIDE, PHOTO_SIDE):
        width, height = _scaled(*size, side)
        file_id = world.new_file_id("AgAC")
        world.files[file_id] = upload
        ids.append(file_id)
        sizes.append({"file_id": file_id, "file_unique_id": f"u{file_id}", "width": width,
                      "height": height, "file_size": len(upload.data)})  # fmt: skip
    photo = tuple(sizes)
    for file_id in ids:
        world.photos[file_id] = photo
    return photo


@method("sendPhoto")
async def send_photo(world: World, p: Params) -> dict[str, Any]:
    chat = sendable(world, p)
    sent = p.raw.get("photo")
    if isinstance(sent, Upload):
        photo, name = _new_photo(world, sent), sent.filename
    elif isinstance(sent, str) and sent in world.photos and sent in world.files:
        photo, name = world.photos[sent], world.files[sent].filename
    elif sent in (None, ""):
        raise errors.bad_request("there is no photo in the request")
    else:
        raise errors.bad_request(WRONG_FILE_ID)
    formatted, source = caption_text(p, strict_ampersand=world.strict_ampersand)
    markup, buttons = reply_markup(p, private=chat.type == "private")
    replied = reply_to(p, chat)
    topic = thread(p, chat, replied)
    flood(world, chat)
    msg = chat.store(
        EmuMessage(
            chat.id, chat.new_message_id(), formatted.text, source, True, world.bot.id,
            world.now(), formatted.entities, buttons, markup, reply_to_message_id=replied,
            thread_id=topic,
            photo=photo, photo_name=name,
        )
    )  # fmt: skip
    return world.message_json(msg)


@method("editMessageCaption")
async def edit_message_caption(world: World, p: Params) -> dict[str, Any]:
    chat, old = editable(world, p)
    if not old.media:
        raise errors.bad_request("there is no caption in the message to edit")
    formatted, source = caption_text(p, strict_ampersand=world.strict_ampersand, edit=True)
    # As with editMessageText, a missing reply_markup removes the inline keyboard.
    markup, buttons = reply_markup(p, private=chat.type == "private", edit=True)
    new = replace(old, text=formatted.text, entities=formatted.entities, html=source,
                  reply_markup=markup, buttons=buttons)  # fmt: skip
    return commit_edit(world, chat, old, new)
