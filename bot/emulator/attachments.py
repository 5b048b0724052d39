"""What a user may send besides text and files, as the Bot API serialises it: the payloads of
`SimUser.send_attachment`. Each has the fields a library needs to read it (python-telegram-bot's
`de_json` requires them), so a bot sees what a Telegram client would send."""

from __future__ import annotations

from typing import Any


def _file(kind: str, owner: int) -> dict[str, Any]:
    return {"file_id": f"{kind}-{owner}", "file_unique_id": f"u-{kind}-{owner}"}


def attachment(kind: str, owner: int) -> dict[str, Any]:
    """The message field and object for `kind` (one of `ATTACHMENTS`) sent by user `owner`."""
    match kind:
        case "sticker":
            sticker = {"width": 512, "height": 512, "is_animated": False, "is_video": False}
            return {"sticker": _file(kind, owner) | sticker | {"type": "regular", "emoji": "👍"}}
        case "photo":
            return {"photo": [_file(kind, owner) | {"width": 320, "height": 240}]}
        case "voice":
            return {"voice": _file(kind, owner) | {"duration": 3, "mime_type": "audio/ogg"}}
        case "location":
            return {"location": {"latitude": 14.6937, "longitude": -17.4441}}
        case "contact":
            return {"contact": {"phone_number": "+221770000000", "first_name": "Awa"}}
    raise ValueError(f"no attachment {kind!r}: one of {', '.join(ATTACHMENTS)}")


ATTACHMENTS = ("sticker", "photo", "voice", "location", "contact")
