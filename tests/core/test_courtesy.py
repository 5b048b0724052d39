"""The courtesy rules (bot/core/courtesy.py): where a member's command is answered, and hints."""

from __future__ import annotations

import pytest

from bot.core.courtesy import (
    GROUP_REPLIES,
    HINTS_PER_QUESTION,
    MEMBER_REPLIES,
    WELCOME,
    WINDOW,
    Reply,
    Said,
    command_reply,
    hint_due,
    hint_topic,
    welcome_due,
)

NOW = 10_000.0
ME, OTHER = 7, 8


def said(user: int, topic: str, ago: float = 1.0, in_group: bool = True) -> Said:
    return Said(user, topic, NOW - ago, in_group)


@pytest.mark.parametrize(
    ("recent", "playing", "expected"),
    [
        ([], False, Reply.IN_GROUP),
        ([], True, Reply.PRIVATELY_PLAYING),
        ([said(ME, "help")], False, Reply.NONE),  # the same command within the minute
        ([said(ME, "help")], True, Reply.NONE),
        ([said(ME, "help", ago=WINDOW + 1)], False, Reply.IN_GROUP),  # a minute later
        ([said(ME, "help", in_group=False)], False, Reply.NONE),  # answered privately: too
        ([said(OTHER, "help")], False, Reply.IN_GROUP),  # another member's
        ([said(ME, t) for t in ("top", "me", "push")[:MEMBER_REPLIES]], False, Reply.NONE),
        ([said(OTHER + n, "help") for n in range(GROUP_REPLIES)], False, Reply.PRIVATELY_BUSY),
        (  # the group's few were answered privately: the group still has room
            [said(OTHER + n, "help", in_group=False) for n in range(GROUP_REPLIES)],
            False,
            Reply.IN_GROUP,
        ),
        ([said(OTHER + n, hint_topic(1, 0)) for n in range(5)], False, Reply.IN_GROUP),
        ([said(0, WELCOME, in_group=False)], False, Reply.IN_GROUP),  # the how-to: nobody's
        ([said(0, WELCOME, in_group=False)] * GROUP_REPLIES, False, Reply.IN_GROUP),
    ],
)
def test_where_a_members_command_is_answered(
    recent: list[Said], playing: bool, expected: Reply
) -> None:
    assert command_reply(recent, ME, "help", NOW, playing=playing) is expected


def test_a_few_hints_per_question_one_per_member() -> None:
    topic = hint_topic(3, 1)
    hinted: list[Said] = []
    given = []
    for user in range(1, 10):
        if hint_due(hinted, user, topic):
            hinted.append(said(user, topic))
            given.append(user)
    assert given == list(range(1, HINTS_PER_QUESTION + 1))
    assert not hint_due([said(ME, topic)], ME, topic)  # once per member
    assert hint_due([said(OTHER, hint_topic(3, 0))] * 5, ME, topic)  # another question's


def test_the_how_to_is_not_posted_twice_within_a_minute() -> None:
    assert welcome_due([], NOW)
    assert not welcome_due([said(0, WELCOME, in_group=False)], NOW)
    assert welcome_due([said(0, WELCOME, ago=WINDOW + 1, in_group=False)], NOW)
    assert welcome_due([said(ME, "help")], NOW)  # a member's /help is theirs, not the how-to
