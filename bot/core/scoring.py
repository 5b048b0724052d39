"""How a group run turns answers into points: plain or speed scoring, with an optional streak bonus.

The mode is a group setting copied onto each run when it starts, so changing it never rescores
runs already played. The rules, written out once (the README repeats them):

- **plain**: 1 point per right answer (the bot's original rule).
- **speed** (Kahoot's published formula): a right answer given `elapsed` into a question of
  `limit` scores `round(1000 * (1 - (elapsed / limit) / 2))`: 1000 for an instant answer, 500 at
  the last moment; elapsed time is clamped to [0, limit]. A wrong answer scores 0.
- **partial credit** (select-all questions, bot/core/kinds.py): a partly right selection is not
  a right answer (no plain point, no streak), but in speed mode it earns its fraction of the
  speed points, `round(speed points * fraction)`.
- **streak bonus** (optional, either mode): the n-th right answer in a row (questions in order; a
  wrong or missing answer breaks the row) earns a bonus from the second one on: in speed mode
  100 × (n − 1), at most 500 (Kahoot's cap); in plain mode 1 point from the third in a row
  (so a long row counts double).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class ScoringMode(StrEnum):
    PLAIN = "plain"
    SPEED = "speed"


SPEED_MAX = 1000
SPEED_STREAK_STEP = 100
SPEED_STREAK_CAP = 500
PLAIN_STREAK_FROM = 3


@dataclass(frozen=True, slots=True)
class ScoringRule:
    """A run's scoring: the mode and whether rows of right answers earn a bonus."""

    mode: ScoringMode = ScoringMode.PLAIN
    streak_bonus: bool = False


@dataclass(frozen=True, slots=True)
class AnswerFact:
    """One member's answer in a run, as scoring needs it."""

    user_id: int
    question_index: int
    is_correct: bool
    elapsed_ms: int
    answered_at: float
    fraction: float | None = None  # partial credit of a select-all answer; None: is_correct


@dataclass(frozen=True, slots=True)
class RunScore:
    """A member's result in one run: what standings add up over a window."""

    user_id: int
    points: int
    correct: int
    answered: int
    last_answer_at: float


def answer_points(
    mode: ScoringMode,
    is_correct: bool,
    elapsed_ms: int,
    limit_ms: int,
    fraction: float | None = None,
) -> int:
    """Points for one answer, before any streak bonus (`fraction`: a select-all answer's
    partial credit, counted in speed mode only)."""
    share = 1.0 if is_correct else (fraction or 0.0)
    if share <= 0 or (mode is ScoringMode.PLAIN and not is_correct):
        return 0
    if mode is ScoringMode.PLAIN:
        return 1
    if limit_ms <= 0:
        return round(SPEED_MAX * share)
    elapsed = min(max(elapsed_ms, 0), limit_ms)
    return round(SPEED_MAX * (1 - (elapsed / limit_ms) / 2) * share)


def streak_bonus(mode: ScoringMode, in_a_row: int) -> int:
    """Bonus for the `in_a_row`-th consecutive right answer (1 = the first of a row)."""
    if mode is ScoringMode.SPEED:
        return min(SPEED_STREAK_STEP * max(in_a_row - 1, 0), SPEED_STREAK_CAP)
    return 1 if in_a_row >= PLAIN_STREAK_FROM else 0


def run_scores(answers: Iterable[AnswerFact], rule: ScoringRule, limit_ms: int) -> list[RunScore]:
    """Every member's score in one run, in user id order."""
    by_user: dict[int, list[AnswerFact]] = {}
    for answer in answers:
        by_user.setdefault(answer.user_id, []).append(answer)
    scores = []
    for user_id in sorted(by_user):
        facts = sorted(by_user[user_id], key=lambda a: a.question_index)
        points = correct = row = 0
        previous = None
        for fact in facts:
            if previous is not None and fact.question_index != previous + 1:
                row = 0  # a question left unanswered breaks the row
            previous = fact.question_index
            points += answer_points(
                rule.mode, fact.is_correct, fact.elapsed_ms, limit_ms, fact.fraction
            )
            if fact.is_correct:
                correct += 1
                row += 1
                if rule.streak_bonus:
                    points += streak_bonus(rule.mode, row)
            else:
                row = 0
        last = max(f.answered_at for f in facts)
        scores.append(RunScore(user_id, points, correct, len(facts), last))
    return scores
