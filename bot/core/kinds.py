"""Kinds of questions and how an answer to each is scored: pure rules, no I/O.

- `single`: one correct option among 2-10 (the original kind).
- `true_false`: two options with the fixed ids `true` and `false`, shown in that order (never
  shuffled: "False / True" reads oddly), scored like `single`.
- `multiple`: 2-8 options, one or more correct; the learner selects a set. Partial-credit rule:
  the answer is *right* only when the selected set equals the correct set; its *score* is a
  fraction, (correct options selected - wrong options selected) / number of correct options,
  floored at 0, so guessing every option scores no more than selecting none.
- `number`: the learner types a value; right when it lies within `tolerance` of `value`, or
  within [`low`, `high`] for a range; an optional unit is shown and may be typed after the
  number. The decimal separator is the locale's ("0,5" in French), "." is always accepted.

A `number` answer is stored like a tap on a virtual option: `NUMBER_RIGHT` (0, the question's
`correct`) when the typed value is accepted, `NUMBER_WRONG` (1) when not, plus the text as
typed and the value read from it; every rule that compares an answer with `correct` (scores,
missed questions, reviews) then holds for it unchanged.

A `flashcard` has a front (the prompt) and a back (its explanation) and no options: it is shown
front first with "Show answer", then the learner rates their own recall Again, Hard, Good or Easy
(`FLASHCARD_RATINGS`), and that rating goes to FSRS as it is (bot/core/review.py), instead of
the rule that derives a rating from a right or wrong answer. Its answer is stored like a tap on a
virtual option, the rating's index (0 = Again .. 3 = Easy), right unless Again (`score_rating`), so
an Again joins the review queue as any miss does. A flashcard is not scored: a quiz's score counts
the other kinds only (bot/core/engine.py `score`), and its result says how many flashcards were
reviewed. Groups skip flashcards unless an admin turns them on; there the back is shown and
nobody is scored.

A `multiple` question is answered by toggles, then Submit (private quizzes, group runs); practice
sets and exams ask the kinds one tap answers (`ONE_TAP`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum


class QuestionKind(StrEnum):
    SINGLE = "single"
    TRUE_FALSE = "true_false"
    MULTIPLE = "multiple"
    NUMBER = "number"
    FLASHCARD = "flashcard"


# The kinds a single tap answers: what practice sets and exams ask (their screens have one
# button per option and no Submit).
ONE_TAP = frozenset({QuestionKind.SINGLE, QuestionKind.TRUE_FALSE})
TRUE_FALSE_IDS = ("true", "false")
NUMBER_RIGHT, NUMBER_WRONG = 0, 1
TYPED_MAX_CHARS = 64  # a longer reply is no number: refused before parsing, never stored
MULTIPLE_MIN_OPTIONS, MULTIPLE_MAX_OPTIONS = 2, 8
# A flashcard's self-ratings in button order; index + 1 is FSRS's Rating (Again = 1 .. Easy = 4).
FLASHCARD_RATINGS = ("again", "hard", "good", "easy")
# What an answer row records as a flashcard's "option": `rating:good`. Content ids have no
# colon, so scores and statistics can tell a rating from any option (`is_rating`).
RATING_PREFIX = "rating:"


def rating_id(rating_index: int) -> str:
    """The option id a flashcard's rating is stored as (`rating:again` .. `rating:easy`)."""
    return RATING_PREFIX + FLASHCARD_RATINGS[rating_index]


@dataclass(frozen=True, slots=True)
class Score:
    """`right` decides streaks, reviews and the verdict; `fraction` (0..1) is partial credit."""

    right: bool
    fraction: float


def score_choice(chosen: int, correct: int) -> Score:
    """`single` and `true_false`: all or nothing."""
    return Score(True, 1.0) if chosen == correct else Score(False, 0.0)


def score_rating(rating_index: int) -> Score:
    """`flashcard`: the learner's own rating; right unless Again (it joins the review queue as
    a miss). Never counted in a quiz's score (see the module docstring)."""
    if not 0 <= rating_index < len(FLASHCARD_RATINGS):
        raise ValueError(f"no flashcard rating {rating_index}")
    return Score(True, 1.0) if rating_index > 0 else Score(False, 0.0)


def score_multiple(selected: Collection[int], correct: Collection[int]) -> Score:
    """`multiple`: right only for the exact set; partial credit as in the module docstring."""
    chosen, key = set(selected), set(correct)
    if not key:
        raise ValueError("a multiple-answer question needs at least one correct option")
    if chosen == key:
        return Score(True, 1.0)
    hits, misses = len(chosen & key), len(chosen - key)
    return Score(False, max(0.0, (hits - misses) / len(key)))


@dataclass(frozen=True, slots=True)
class NumberAnswer:
    """The key of a `number` question: `value` ± `tolerance`, or the range [`low`, `high`]."""

    value: float | None = None
    tolerance: float = 0.0
    low: float | None = None
    high: float | None = None
    unit: str = ""

    def __post_init__(self) -> None:
        ranged = self.low is not None and self.high is not None
        if (self.value is None) == (not ranged):
            raise ValueError("a number answer is either value (± tolerance) or low..high")
        if ranged and self.low > self.high:  # type: ignore[operator]
            raise ValueError("low is above high")
        if self.tolerance < 0:
            raise ValueError("tolerance is negative")

    def accepts(self, typed: float) -> bool:
        if self.value is not None:
            # A relative epsilon so that 0.1 + 0.2 style representation errors never fail a
            # learner who typed exactly the value.
            slack = self.tolerance + 1e-9 * max(1.0, abs(self.value))
            return abs(typed - self.value) <= slack
        assert self.low is not None and self.high is not None
        return self.low <= typed <= self.high


def score_number(typed: float | None, key: NumberAnswer) -> Score:
    """`number`: all or nothing; an unreadable reply (None) is wrong."""
    if typed is None or not math.isfinite(typed) or not key.accepts(typed):
        return Score(False, 0.0)
    return Score(True, 1.0)


_NUMBER = re.compile(r"^([-+−]?)(\d{1,15}(?:[ \u00a0\u202f]\d{3})*|\d*)(?:([.,])(\d{1,15}))?$")


# Digits grouped by threes with one mark, "1,000" or "12.500.000": thousands, or decimals?
_GROUPED = re.compile(r"^[-+−]?[1-9]\d{0,2}(?:([.,])\d{3})+$")


def _without_unit(text: str, unit: str | Collection[str]) -> str:
    """The reply without a trailing unit ("12 GB" -> "12")."""
    cleaned = text.strip()
    units = [unit] if isinstance(unit, str) else list(unit)
    for name in sorted((u.strip() for u in units if u.strip()), key=len, reverse=True):
        if cleaned.lower().endswith(name.lower()):
            return cleaned[: -len(name)].rstrip()
    return cleaned


def ambiguous_number(
    text: str, decimal_separator: str = ".", unit: str | Collection[str] = ""
) -> bool:
    """Whether the reply groups digits by threes with the mark that is not the learner's
    decimal mark ("1,000" in English, "1.000" in French): a thousand to some readers, a decimal
    to others, so it is refused with its own message instead of being guessed."""
    if len(text.strip()) > TYPED_MAX_CHARS:
        return False
    cleaned = _without_unit(text, unit)
    match = _GROUPED.match(cleaned)
    if match is None:
        return False
    marks = {ch for ch in cleaned if ch in ".,"}
    return marks == {match.group(1)} and match.group(1) != decimal_separator


def parse_number(
    text: str, decimal_separator: str = ".", unit: str | Collection[str] = ""
) -> float | None:
    """The number in a learner's reply, or None when it is not one.

    `decimal_separator` is the locale's ("," for French): both it and "." are read as the
    decimal mark; thin and no-break spaces group thousands ("1 000,5"). A trailing `unit`
    ("12 GB" when the unit is "GB") is accepted; several units may be given (the learner's
    language's and the English one). "1,000" in English is ambiguous and refused, as "1.000" in
    French (`ambiguous_number`).
    """
    if len(text.strip()) > TYPED_MAX_CHARS or ambiguous_number(text, decimal_separator, unit):
        return None
    cleaned = _without_unit(text, unit)
    match = _NUMBER.match(cleaned)
    if match is None:
        return None
    sign, whole, mark, fraction = match.groups()
    if not whole and not fraction:
        return None
    if mark == "," and decimal_separator != ",":
        return None
    digits = re.sub(r"[ \u00a0\u202f]", "", whole) or "0"
    value = float(f"{digits}.{fraction}" if fraction else digits)
    return -value if sign in ("-", "−") else value
