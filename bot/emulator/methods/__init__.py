"""Bot API method handlers, registered by name; the server looks them up case-insensitively."""

from __future__ import annotations

# Importing the handler modules registers them in the registry's table.
from . import bot, chats, files, inline, messages, photos  # noqa: F401
from .registry import METHODS, Handler, lookup, method

__all__ = ["METHODS", "Handler", "lookup", "method"]
