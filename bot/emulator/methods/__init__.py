"""Bot API method handlers, registered by name; the server looks them up case-insensitively."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..params import Params
from ..world import World

Handler = Callable[[World, Params], Awaitable[Any]]

# lower-case name -> (Telegram's spelling, handler)
METHODS: dict[str, tuple[str, Handler]] = {}


def method(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        METHODS[name.lower()] = (name, handler)
        return handler

    return register


def lookup(name: str) -> tuple[str, Handler] | None:
    return METHODS.get(name.lower())


# Importing the handler modules registers them; they need `method` above.
from . import bot, chats, files, inline, messages, photos  # noqa: E402, F401
