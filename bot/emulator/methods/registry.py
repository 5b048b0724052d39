"""The table of Bot API method handlers by name, which each handler module fills as it is
imported (`@method("sendMessage")`); the server looks names up case-insensitively. Its own
module so the handler modules need not import the package that imports them."""

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
