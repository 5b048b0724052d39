"""The outcomes every place a question is answered shares (a private attempt, a group run, a
review or practice round), defined once so that a handler's `case NotYours()` means one thing;
and those of a typed reply to a number question, shared by a private attempt and a round.

`lang` is the language of the one person who tapped, where the reply to them is a popup in a
group (a group's messages have their own language); "" where the chat's language is theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.answers import units
from bot.core.kinds import ambiguous_number
from bot.core.models import Question


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


@dataclass(frozen=True, slots=True)
class Asked:
    """The messages of an asked number question: the question (edited once answered) and the
    ForceReply prompt (deleted once answered; 0 when unknown, after a restart)."""

    index: int
    question_message: int
    prompt_message: int = 0


@dataclass(frozen=True, slots=True)
class Unreadable:
    """Not a number: nothing stored, the question stays open."""

    question: Question
    ambiguous: str = ""  # the reply, when it is "1,000": thousands or decimals? (its own hint)


@dataclass(frozen=True, slots=True)
class OldQuestion:
    """A reply to an earlier message than the open question's, or to a question answered."""


@dataclass(frozen=True, slots=True)
class NotAsked:
    """No number question is open for this learner: the text is not an answer."""


def unreadable(question: Question, typed: str, separator: str, lang: str) -> Unreadable:
    """Why a reply is not taken: no number, or one whose thousands separator could be a
    decimal mark ("1,000"), which has its own message."""
    doubt = ambiguous_number(typed, separator, units(question, lang))
    return Unreadable(question, typed if doubt else "")
