"""Telegram's limits that content and rendering must both respect (Bot API 10)."""

from __future__ import annotations

import re

MESSAGE_MAX_CHARS = 4096
POPUP_MAX_CHARS = 200
# What a reply quotes back of a typed argument ("Unknown time zone: …"): a message holds 4,096
# characters, and a command's argument can be nearly all of them.
TYPED_BACK_MAX_CHARS = 64
# The longest verdict line a group popup starts with, in any language ("❌ Pas tout à fait : la
# bonne réponse est B."); the content checker leaves the rest for the explanation, and a test
# holds every translation of the verdicts to it.
POPUP_VERDICT_CHARS = 56
CALLBACK_DATA_MAX_BYTES = 64
DEEP_LINK_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
QUIZ_ID_MAX_CHARS = 32  # leaves room in callback data and deep links for prefixes
MIN_OPTIONS, MAX_OPTIONS = 2, 10

# Characters a rendered question adds around the prompt and options ("Question 10/10", letters,
# line breaks, <code> tags); the renderer's tests check it stays under this bound.
QUESTION_OVERHEAD_CHARS = 160
OPTION_OVERHEAD_CHARS = 8

# The longest callback data the adapter builds that carries a quiz id; the adapter's tests check
# every encoding against it, the content checker checks every quiz id against it.
LONGEST_CALLBACK_WITH_QUIZ = "upg:-9999999999999999:-99:{quiz_id}"  # an upload's guide button


def callback_bytes(quiz_id: str) -> int:
    return len(LONGEST_CALLBACK_WITH_QUIZ.format(quiz_id=quiz_id).encode("utf-8"))


def question_chars(prompt: str, options: list[str]) -> int:
    """Upper bound of a rendered question's length in characters."""
    return (
        QUESTION_OVERHEAD_CHARS
        + len(prompt)
        + sum(len(option) + OPTION_OVERHEAD_CHARS for option in options)
    )
