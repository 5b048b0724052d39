"""When the bot answers what a member says in a group: the run's budget comes first (issue 25).

Telegram lets a bot post about 20 messages a minute in a group, and a quiz run spends them on
its intro, questions and results. Everything else the bot posts there in answer to a member (a
command's reply, a refusal, the hint after a reply that is no number) is a *courtesy reply*:
owed to one member, read by the whole group. One member's 25 `/help` once cost 25 of them, and
the next question came a minute late. So, for members who are not the group's admins:

* the same command is answered at most once a minute per member, and at most `MEMBER_REPLIES`
  commands a minute per member (a repeat gets nothing: the answer is a few lines up);
* while a run plays, nothing is posted in the group: the member is answered privately (the
  question on screen is what the group is reading, and any post pushes it up the chat);
* otherwise at most `GROUP_REPLIES` courtesy replies a minute go to the group, the others
  privately;
* a number question gets at most `HINTS_PER_QUESTION` hints, one per member: a few hints show
  everyone how to reply, more would only bury the question.

A private answer needs the member to have started the bot (Telegram forbids writing first);
when that fails the member gets nothing, by choice: a group post is exactly the flood avoided.
Admins are never held back: they run the quiz, and they are few.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

WINDOW = 60.0  # seconds: "a minute" in every rule above
MEMBER_REPLIES = 3  # commands answered per member per minute, whatever the commands
GROUP_REPLIES = 3  # courtesy replies posted in one group per minute
HINTS_PER_QUESTION = 3  # hints after unreadable replies to one number question
KEEP = 600.0  # seconds a remembered reply is kept: longer than any question stays open
HINT = "hint:"  # topic prefix of a hint, "hint:<run id>:<question index>"
# The how-to the bot posts when it is added: remembered under nobody's user id (0), so it never
# counts toward a member's caps, and kept privately (`in_group` false) toward the group's.
WELCOME = "welcome"


class Reply(StrEnum):
    """Where a member's command is answered."""

    IN_GROUP = "group"
    PRIVATELY_PLAYING = "playing"  # privately: a run plays in the group
    PRIVATELY_BUSY = "busy"  # privately: the group had its few courtesy replies this minute
    NONE = "none"  # not at all: answered less than a minute ago, or too often


@dataclass(frozen=True, slots=True)
class Said:
    """A courtesy reply the bot gave (or decided to give) in one group."""

    user_id: int
    topic: str  # the command ("help"), or a hint's `hint_topic`
    at: float
    in_group: bool  # posted in the group (counts toward GROUP_REPLIES), or privately


def hint_topic(run_id: int, index: int) -> str:
    return f"{HINT}{run_id}:{index}"


def command_reply(
    recent: Iterable[Said], user_id: int, topic: str, now: float, *, playing: bool
) -> Reply:
    """Where `user_id`'s command `topic` is answered, given the group's recent courtesy replies."""
    minute = [s for s in recent if s.at > now - WINDOW and not s.topic.startswith(HINT)]
    mine = [s for s in minute if s.user_id == user_id]
    if any(s.topic == topic for s in mine) or len(mine) >= MEMBER_REPLIES:
        return Reply.NONE
    if playing:
        return Reply.PRIVATELY_PLAYING
    if sum(s.in_group for s in minute) >= GROUP_REPLIES:
        return Reply.PRIVATELY_BUSY
    return Reply.IN_GROUP


def hint_due(recent: Iterable[Said], user_id: int, topic: str) -> bool:
    """Whether `user_id` gets a hint for the question of `topic` (a `hint_topic`)."""
    hinted = {s.user_id for s in recent if s.topic == topic}
    return user_id not in hinted and len(hinted) < HINTS_PER_QUESTION


def welcome_due(recent: Iterable[Said], now: float) -> bool:
    """Whether the group's how-to is due again: not when it was posted less than a minute ago
    (the bot added by a `startgroup` link gets the link's /start right after it joined)."""
    return not any(s.topic == WELCOME and s.at > now - WINDOW for s in recent)
