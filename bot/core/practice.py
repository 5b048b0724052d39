"""Practice sets: questions drawn from every quiz that matches, none again until all were seen.

A learner's pool is every question of the quizzes matching their choice (guides and a level).
Each set draws first from the questions they have not seen in the current cycle; when fewer are
left than the set needs, the cycle ends, and the rest of the set comes from a fresh cycle (never
a question already in this set). The store keeps the seen keys; this module only decides.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.core.kinds import ONE_TAP
from bot.core.models import Catalog, Level, Quiz

LENGTHS = (5, 10, 20)


@dataclass(frozen=True, slots=True)
class QuestionKey:
    """A question by ids (they survive edits of the content; positions do not)."""

    quiz_id: str
    question_id: str

    def encode(self) -> str:
        return f"{self.quiz_id}/{self.question_id}"

    @classmethod
    def decode(cls, text: str) -> QuestionKey:
        quiz_id, _, question_id = text.partition("/")
        return cls(quiz_id, question_id)


@dataclass(frozen=True, slots=True)
class Draw:
    """The questions of a set, and the seen keys of the cycle after it (what to store)."""

    questions: tuple[QuestionKey, ...]
    seen: frozenset[QuestionKey]
    new_cycle: bool  # the learner had seen every matching question: a new round began


def matching_quizzes(catalog: Catalog, guides: Collection[str], level: Level | None) -> list[Quiz]:
    """Quizzes in the chosen guides (all guides when none is chosen) at `level` (any if None)."""
    return [
        quiz
        for quiz in catalog
        if (not guides or (quiz.guide is not None and quiz.guide.id in guides))
        and (level is None or quiz.level == level)
    ]


def offered_levels(catalog: Catalog, guides: Collection[str]) -> list[Level]:
    """The levels worth offering for `guides` (all guides when none is chosen): those with at
    least one question a set can ask, in the catalogue's level order, so that no choice in the
    chooser leads to "no quiz matches"."""
    present = {quiz.level for quiz in matching_quizzes(catalog, guides, None) if pool_of([quiz])}
    return [level for level in Level if level in present]


def pool_of(quizzes: Sequence[Quiz]) -> list[QuestionKey]:
    """Every question a set may draw: the kinds one tap answers (`kinds.ONE_TAP`). Number
    questions (a typed reply) and select-all questions (toggles, then Submit) are asked in their
    quiz; practice sets and exams are answered with one button per option."""
    return [
        QuestionKey(quiz.id, q.id) for quiz in quizzes for q in quiz.questions if q.kind in ONE_TAP
    ]


def draw(
    pool: Sequence[QuestionKey],
    seen: Collection[QuestionKey],
    length: int,
    rng: random.Random,
) -> Draw:
    """Up to `length` questions of `pool`, unseen ones first, none repeated within the set."""
    if length <= 0:
        raise ValueError("a practice set needs at least one question")
    unique = list(dict.fromkeys(pool))
    in_pool = set(unique)
    seen_now = {key for key in seen if key in in_pool}  # questions removed since are forgotten
    unseen = [key for key in unique if key not in seen_now]
    rng.shuffle(unseen)
    chosen = unseen[:length]
    new_cycle = False
    if len(chosen) < length and len(chosen) < len(unique):
        new_cycle = True
        rest = [key for key in unique if key not in set(chosen)]
        rng.shuffle(rest)
        extra = rest[: length - len(chosen)]
        chosen += extra
        seen_now = set(extra)
    else:
        seen_now |= set(chosen)
    return Draw(tuple(chosen), frozenset(seen_now), new_cycle)
