"""Typed access to Bot API parameters, which arrive as strings (form data) or JSON values.

PTB sends every parameter form-encoded: strings as they are, everything else JSON-encoded
(`true`, `42`, `{"inline_keyboard": ...}`); a JSON body gives native values. Handlers ask for the
type they need and get Telegram's error when the value cannot be one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from . import errors


class Upload(NamedTuple):
    """A file part of a multipart request, as the bot sent it."""

    filename: str
    content_type: str
    data: bytes


class Params:
    __slots__ = ("raw",)

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw

    def __contains__(self, name: str) -> bool:
        return self.raw.get(name) not in (None, "")

    def get_str(self, name: str, default: str | None = None) -> str | None:
        value = self.raw.get(name)
        if value is None:
            return default
        return value if isinstance(value, str) else json.dumps(value)

    def get_int(
        self, name: str, default: int | None = None, *, required: bool = False
    ) -> int | None:
        value = self.raw.get(name)
        if value in (None, ""):
            if required:
                raise errors.bad_request(f"{name} is empty")
            return default
        if isinstance(value, bool):
            raise errors.bad_request(f"invalid {name} specified")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise errors.bad_request(f"invalid {name} specified") from None

    def chat_id(self) -> int:
        """chat_id; a public @username is not emulated, so it is an unknown chat."""
        value = self.raw.get("chat_id")
        if value in (None, ""):
            raise errors.bad_request("chat_id is empty")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise errors.bad_request(errors.CHAT_NOT_FOUND) from None

    def get_bool(self, name: str, default: bool = False) -> bool:
        value = self.raw.get(name)
        if value in (None, ""):
            return default
        if isinstance(value, bool):
            return value
        return str(value).strip().lower() in ("true", "1")

    def get_json(self, name: str, what: str | None = None) -> Any:
        """A nested object (reply_markup, commands, scope...), decoded if it came as a string."""
        value = self.raw.get(name)
        if not isinstance(value, str):
            return value
        if value == "":
            return None
        try:
            return json.loads(value)
        except ValueError:
            raise errors.bad_request(f"can't parse {what or name} JSON object") from None
