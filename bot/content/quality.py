"""Warnings about how a question reads to a learner: give-aways, repeats, popups that cut.

Pure functions over strings (the checks modules decide where to report). They are warnings:
the bot serves such content, but a reviewer should look.
"""

from __future__ import annotations

from bot.core import limits
from bot.core.markup import plain

# Room for the explanation in a group popup: Telegram's 200 characters less the verdict line
# ("❌ Not quite: the answer is B." in the longest language) and the line break after it.
POPUP_ROOM = limits.POPUP_MAX_CHARS - limits.POPUP_VERDICT_CHARS - 1
_SENTENCE_ENDS = (". ", "! ", "? ", ".\n", "!\n", "?\n")


def giveaway(options: dict[str, str], answer: str) -> str | None:
    """The right option is the only longest one: learners pick it without knowing why."""
    if answer not in options or len(options) < 2:
        return None
    right = len(plain(options[answer]))
    others = [len(plain(text)) for oid, text in options.items() if oid != answer]
    if right <= max(others):
        return None
    return (
        f"the right option is the only longest one ({right} characters, the next {max(others)}): "
        "learners can guess it; lengthen a wrong option or shorten the right one"
    )


def first_sentence(text: str) -> str:
    ends = [i for mark in _SENTENCE_ENDS if (i := text.find(mark)) >= 0]
    return text[: min(ends) + 1] if ends else text


def popup_cut(explanation: str) -> str | None:
    """A group popup shows the verdict and the explanation's start: its first sentence must fit."""
    sentence = first_sentence(plain(explanation).strip())
    if len(sentence) <= POPUP_ROOM:
        return None
    return (
        f"the first sentence is {len(sentence)} characters; a group popup has room for "
        f"{POPUP_ROOM} after the verdict, so members see it cut: say why in a shorter first "
        "sentence (the whole explanation still shows when the question closes)"
    )


def prompt_key(prompt: str) -> str:
    """Two prompts are the same question when they differ only in case and spacing."""
    return " ".join(plain(prompt).casefold().split())
