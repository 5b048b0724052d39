"""Telegram's caption limit, measured as Telegram measures it (no image, no network here).

A question with a picture is sent as one captioned photo when its text fits in a caption with
room to spare for what its later edits add; `as_caption` is the one rule every sender and
editor of such a question follows, so none needs to remember which way a question was sent.
"""

from __future__ import annotations

import html
import re

from bot.core.models import MediaFile

CAPTION_MAX_CHARS = 1024
# Room kept in a caption for what the edits of a question add (✅/❌ marks, a changed count).
CAPTION_ROOM = 16
_TAG = re.compile(r"<[^>]*>")


def visible_chars(text: str) -> int:
    """What Telegram counts of an HTML text: tags removed, entities decoded, ends trimmed."""
    return len(html.unescape(_TAG.sub("", text)).strip())


def fits_caption(text: str, room: int = 0) -> bool:
    return visible_chars(text) + room <= CAPTION_MAX_CHARS


def as_caption(text: str, photo: MediaFile | None) -> bool:
    """Whether a screen with this text and picture is (or was) sent as one captioned photo."""
    return photo is not None and fits_caption(text, CAPTION_ROOM)
