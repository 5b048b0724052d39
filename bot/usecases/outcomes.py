"""The outcomes every place a question is answered shares (a private attempt, a group run, a
review or practice round), defined once so that a handler's `case NotYours()` means one thing.

`lang` is the language of the one person who tapped, where the reply to them is a popup in a
group (a group's messages have their own language); "" where the chat's language is theirs.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AlreadyAnswered:
    """A second tap on a question already answered: the first answer stands."""

    lang: str = ""


@dataclass(frozen=True, slots=True)
class NotYours:
    """Another person's attempt, round or button, another chat's run, or an id that never
    existed (forged data): nothing changed."""

    lang: str = ""


@dataclass(frozen=True, slots=True)
class Closed:
    """Not the open question any more, or the attempt or run is over: nothing changed."""

    lang: str = ""


@dataclass(frozen=True, slots=True)
class NothingSelected:
    """Submit with no option selected: refused, nothing stored."""

    lang: str = ""
