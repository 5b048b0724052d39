"""Item analysis: which questions of a quiz measure what the quiz measures, and which are broken.

Classical test theory, as teachers have used it for a century, over plain answer rows:

- **A respondent is a learner's first sitting of the quiz** (their lowest attempt id in the
  answers given): the bot shows the key after each question, so a second sitting measures
  memory of the key, not the question. One learner counts once.
- **The score** of a sitting is its number of right answers on the quiz's questions: a
  select-all answer is right only as the exact set, a number answer only within the question's
  tolerance (both decided when the answer was recorded, as everywhere else). A question the
  sitting did not answer scores 0 in its total and the sitting is not a respondent of it.
- **The rest score** for a question is the total minus that question's own point, so an item is
  never correlated with itself (which would inflate short quizzes' figures).
- **Difficulty** is the share right. **Point-biserial** is Pearson's correlation between the
  item's 0/1 and the rest score (None when either does not vary). **Upper–lower index** is the
  share right among the top 27 % by rest score minus that among the bottom 27 %; the groups hold
  round(0.27 n) respondents and a tie at a group's edge shares the places left equally (each tied
  respondent counts with the same fractional weight), so the figure never depends on the order
  rows came in.
- **Distractors**: each wrong option's share of respondents choosing it, and its share among the
  upper group; the key's upper share is the upper group's share choosing it (the least chosen
  key option for a select-all question). A number question has no options and no distractors.

Flags (only with `MIN_ANSWERERS` respondents or more; below that the figures are noise):
"probably mis-keyed" when the point-biserial is negative or a distractor is chosen by the upper
group more than the key; "too easy" above `TOO_EASY` right; "a distractor nobody picks".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.core.models import Question

MIN_ANSWERERS = 20  # fewer respondents: the figures are shown as not reliable yet
TOO_EASY = 0.95  # a share right above this says little about who knows
GROUP_SHARE = 0.27  # Kelley's upper and lower 27 %


@dataclass(frozen=True, slots=True)
class Item:
    """A question as the analysis needs it: its option ids (none for a number) and its key."""

    question_id: str
    options: tuple[str, ...]
    key: frozenset[str]


@dataclass(frozen=True, slots=True)
class Response:
    """One answer: who, in which sitting (an attempt id: one for every member of a group run),
    to what, right or not, choosing what."""

    learner: int
    sitting: int
    question_id: str
    right: bool
    chosen: frozenset[str] = frozenset()


class Flag(Enum):
    NEGATIVE = "negative"  # point-biserial below zero: the weaker do better on it
    DISTRACTOR_BEATS_KEY = "distractor_beats_key"  # the strongest prefer a wrong option
    TOO_EASY = "too_easy"
    UNUSED_DISTRACTOR = "unused_distractor"

    @property
    def miskeyed(self) -> bool:
        return self in (Flag.NEGATIVE, Flag.DISTRACTOR_BEATS_KEY)


@dataclass(frozen=True, slots=True)
class Distractor:
    option_id: str
    share: float  # of respondents choosing it
    upper_share: float  # of the upper 27 % choosing it
    chosen: int  # respondents choosing it


@dataclass(frozen=True, slots=True)
class ItemAnalysis:
    question_id: str
    answerers: int
    difficulty: float  # share right
    point_biserial: float | None
    upper_lower: float | None
    key_upper_share: float | None  # None for a number question (no options)
    distractors: tuple[Distractor, ...]
    # (flag, option id): the option a distractor flag is about, "" for the others
    flags: tuple[tuple[Flag, str], ...]

    @property
    def reliable(self) -> bool:
        return self.answerers >= MIN_ANSWERERS

    @property
    def miskeyed(self) -> bool:
        return any(flag.miskeyed for flag, _ in self.flags)


def first_sittings(responses: Iterable[Response]) -> list[Response]:
    """The responses of each learner's first sitting (lowest sitting id) only."""
    rows = list(responses)
    first: dict[int, int] = {}
    for r in rows:
        first[r.learner] = min(r.sitting, first.get(r.learner, r.sitting))
    return [r for r in rows if first[r.learner] == r.sitting]


def analyse(items: Sequence[Item], responses: Iterable[Response]) -> list[ItemAnalysis]:
    """Each item's figures (in `items` order) over the first sittings among `responses`.

    Responses to questions not in `items` are ignored (a question that left the quiz counts in
    no score); a sitting that answered a question twice (it cannot, but rows are data) keeps the
    first row."""
    known = {item.question_id for item in items}
    # (learner, sitting) -> question -> its answer: a group run is one sitting id for all
    answers: dict[tuple[int, int], dict[str, Response]] = {}
    for r in first_sittings(responses):
        if r.question_id in known:
            answers.setdefault((r.learner, r.sitting), {}).setdefault(r.question_id, r)
    totals = {s: sum(a.right for a in qs.values()) for s, qs in answers.items()}
    return [_item(item, answers, totals) for item in items]


def _item(
    item: Item,
    answers: dict[tuple[int, int], dict[str, Response]],
    totals: dict[tuple[int, int], int],
) -> ItemAnalysis:
    mine = [
        (qs[item.question_id], totals[s]) for s, qs in answers.items() if item.question_id in qs
    ]
    n = len(mine)
    scores = [1.0 if r.right else 0.0 for r, _ in mine]
    rests = [float(total - r.right) for r, total in mine]
    difficulty = sum(scores) / n if n else 0.0
    upper = _weights(rests, top=True)
    lower = _weights(rests, top=False)
    index = None
    if n:
        index = _share(upper, [s > 0 for s in scores]) - _share(lower, [s > 0 for s in scores])
    distractors: list[Distractor] = []
    key_upper = None
    if item.options:
        key_upper = min(
            (_share(upper, [k in r.chosen for r, _ in mine]) for k in item.key), default=0.0
        )
        for option in item.options:
            if option in item.key:
                continue
            picked = [option in r.chosen for r, _ in mine]
            distractors.append(
                Distractor(
                    option,
                    sum(picked) / n if n else 0.0,
                    _share(upper, picked),
                    sum(picked),
                )
            )
    r_pb = pearson(scores, rests)
    flags: list[tuple[Flag, str]] = []
    if n >= MIN_ANSWERERS:
        if r_pb is not None and r_pb < 0:
            flags.append((Flag.NEGATIVE, ""))
        for d in distractors:
            if key_upper is not None and d.upper_share > key_upper:
                flags.append((Flag.DISTRACTOR_BEATS_KEY, d.option_id))
        if difficulty > TOO_EASY:
            flags.append((Flag.TOO_EASY, ""))
        flags += [(Flag.UNUSED_DISTRACTOR, d.option_id) for d in distractors if d.chosen == 0]
    return ItemAnalysis(
        item.question_id, n, difficulty, r_pb, index, key_upper, tuple(distractors), tuple(flags)
    )


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation (the point-biserial when `xs` is 0/1); None if either is constant."""
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return sxy / math.sqrt(sxx * syy)


def group_size(n: int) -> int:
    """round(0.27 n), half up, at least 1 when anyone answered."""
    return max(1, math.floor(GROUP_SHARE * n + 0.5)) if n else 0


def _weights(rests: Sequence[float], *, top: bool) -> list[float]:
    """Each respondent's membership (0..1) of the upper (or lower) group by rest score: whole
    tie groups while they fit, then the places left shared equally by the next tie group."""
    weights = [0.0] * len(rests)
    left = float(group_size(len(rests)))
    for value in sorted(set(rests), reverse=top):
        if left <= 0:
            break
        tied = [i for i, r in enumerate(rests) if r == value]
        w = min(1.0, left / len(tied))
        for i in tied:
            weights[i] = w
        left -= w * len(tied)
    return weights


def _share(weights: Sequence[float], hits: Sequence[bool]) -> float:
    size = sum(weights)
    if size <= 0:
        return 0.0
    return sum(w for w, hit in zip(weights, hits, strict=True) if hit) / size


def flagged_first(analyses: Sequence[ItemAnalysis]) -> list[ItemAnalysis]:
    """Flagged items first (mis-keyed before the others), each kind in its given order."""
    return sorted(analyses, key=lambda a: (not a.miskeyed, not a.flags))


def quiz_items(questions: Iterable[Question]) -> list[Item]:
    """The items of a quiz's questions, by content ids: option ids and the key's ids (a number
    question has neither)."""
    return [
        Item(q.id, tuple(o.id for o in q.options), frozenset(q.options[i].id for i in q.key))
        if q.options
        else Item(q.id, (), frozenset())
        for q in questions
    ]
