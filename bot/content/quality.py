"""Warnings about how a question reads to a learner: give-aways, repeats, popups that cut.

Pure functions over strings (the checks modules decide where to report). They are warnings:
the bot serves such content, but a reviewer should look.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.content.problems import N_, Msg
from bot.core import limits
from bot.core.markup import plain, split_code

# Room for the explanation in a group popup: Telegram's 200 characters less the verdict line
# ("❌ Not quite: the answer is B." in the longest language) and the line break after it.
POPUP_ROOM = limits.POPUP_MAX_CHARS - limits.POPUP_VERDICT_CHARS - 1
_SENTENCE_ENDS = (". ", "! ", "? ", ".\n", "!\n", "?\n")


def _length(text: str) -> int:
    """What a learner sees of an option's length: its text without markup or whitespace (padding
    a distractor with spaces hides nothing)."""
    return len("".join(plain(text).split()))


def giveaway(options: dict[str, str], answer: Sequence[str]) -> str | None:
    """The right options are the longest ones: learners pick them without knowing why.

    One right option (a single question, or a select-all with one) is a give-away when it is
    the only longest; a select-all when every right option is longer than every wrong one."""
    right = [_length(options[a]) for a in answer if a in options]
    wrong = [_length(text) for oid, text in options.items() if oid not in answer]
    if not right or not wrong or min(right) <= max(wrong):
        return None
    if len(right) == 1:
        return Msg(
            N_("the right option is the only longest one ({size} characters, the next "
               "{next}): learners can guess it; lengthen a wrong option or shorten the right "
               "one"),
            size=right[0], next=max(wrong),
        )  # fmt: skip
    return Msg(
        N_("the right options are the {n} longest ({size} characters or more, the longest "
           "wrong one {next}): learners can guess them; lengthen a wrong option"),
        n=len(right), size=min(right), next=max(wrong),
    )  # fmt: skip


# Absolute and limiting words: test-wise learners eliminate an option that carries one when no
# right option does. Matched as whole words (casefolded, outside code).
ABSOLUTE_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        [
            "only",
            "always",
            "never",
            "nothing",
            "none",
            "cannot",
            "whatever",
            "altogether",
            "exactly",
            "forbids",
            "forbidden",
            "impossible",
            "entirely",
            "completely",
        ]
    ),
    "fr": frozenset(
        [
            "seul",
            "seule",
            "seuls",
            "seules",
            "seulement",
            "uniquement",
            "toujours",
            "jamais",
            "rien",
            "aucun",
            "aucune",
            "impossible",
            "interdit",
            "interdite",
            "exactement",
            "entièrement",
            "totalement",
            "complètement",
        ]
    ),
    "wo": frozenset(["rekk", "mukk", "dara"]),
}
_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def absolute_words(text: str, lang: str) -> set[str]:
    words = ABSOLUTE_WORDS.get(lang)
    if not words:
        return set()
    return set(words.intersection(_WORDS.findall(_prose(text).casefold())))


def absolutes_in_distractors(
    options: dict[str, str], answer: Sequence[str], lang: str
) -> dict[str, str]:
    """Wrong option id -> the message, when wrong options carry absolute words and no right one
    does."""
    if any(absolute_words(options[a], lang) for a in answer if a in options):
        return {}
    out: dict[str, str] = {}
    for oid, text in options.items():
        if oid not in answer and (found := absolute_words(text, lang)):
            out[oid] = Msg(
                N_("a wrong option says {words} and no right option has such an absolute word: "
                   "learners eliminate it without knowing the topic; reword it"),
                words=", ".join(repr(w) for w in sorted(found)),
            )  # fmt: skip
    return out


def _prose(text: str) -> str:
    if "`" not in text:
        return text
    return " ".join(piece for is_code, piece in split_code(text) if not is_code)


def first_sentence(text: str) -> str:
    ends = [i for mark in _SENTENCE_ENDS if (i := text.find(mark)) >= 0]
    return text[: min(ends) + 1] if ends else text


def popup_cut(explanation: str) -> str | None:
    """A group popup shows the verdict and the explanation's start: its first sentence must fit."""
    sentence = first_sentence(plain(explanation).strip())
    if len(sentence) <= POPUP_ROOM:
        return None
    return Msg(
        N_("the first sentence is {size} characters; a group popup has room for {room} after "
           "the verdict, so members see it cut: say why in a shorter first sentence (the whole "
           "explanation still shows when the question closes)"),
        size=len(sentence), room=POPUP_ROOM,
    )  # fmt: skip


def prompt_key(prompt: str) -> str:
    """Two prompts are the same question when they differ only in case and spacing."""
    return " ".join(plain(prompt).casefold().split())
