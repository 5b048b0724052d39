"""The rules of a quiz attempt: shuffling, answering, scoring. Pure functions over frozen values.

An attempt stores, per question, the order its options are shown in (a permutation of option
indexes), so the same attempt looks the same after a restart. Buttons carry the *displayed
position*; `judge` maps it back to the option, so a forged or stale position can never score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.core import kinds
from bot.core.kinds import (
    FLASHCARD_RATINGS,
    NUMBER_RIGHT,
    NUMBER_WRONG,
    QuestionKind,
    score_number,
)
from bot.core.models import Question, Quiz

OptionOrders = tuple[tuple[int, ...], ...]


class Status(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    CLOSED = "closed"  # attempt over, or a button of a question that is not the current one
    ALREADY_ANSWERED = "already_answered"
    INVALID = "invalid"  # a position that no button ever carried
    NOT_YOURS = "not_yours"  # a button of another chat's run, tapped from elsewhere


def option_orders(quiz: Quiz, rng: random.Random, shuffle: bool = True) -> OptionOrders:
    """A display order for every question's options; identity when shuffling is off."""
    orders: list[tuple[int, ...]] = []
    for question in quiz.questions:
        order = list(range(len(question.options)))
        if shuffle and question.kind is not QuestionKind.TRUE_FALSE:
            rng.shuffle(order)
        orders.append(tuple(order))
    return tuple(orders)


def orders_match(quiz: Quiz, orders: OptionOrders) -> bool:
    """Whether stored orders still fit the quiz (content may have changed since they were saved)."""
    return len(orders) == len(quiz.questions) and all(
        sorted(order) == list(range(len(q.options)))
        for order, q in zip(orders, quiz.questions, strict=True)
    )


@dataclass(frozen=True, slots=True)
class Judgement:
    question_index: int
    position: int  # displayed position that was tapped (0 = A)
    option_index: int  # the option behind that position
    correct_position: int
    is_correct: bool


def judge(
    question: Question, order: Sequence[int], question_index: int, position: int
) -> Judgement | None:
    """Map a tapped position to its option and say whether it is right; None if no such button
    (a `multiple` question has none: it is answered by a submitted set, `judge_selection`)."""
    if question.kind is QuestionKind.MULTIPLE:
        return None
    if question.kind is QuestionKind.FLASHCARD:
        return judge_rating(question, question_index, position)
    if not 0 <= position < len(order) or len(order) != len(question.options):
        return None
    option_index = order[position]
    return Judgement(
        question_index=question_index,
        position=position,
        option_index=option_index,
        correct_position=list(order).index(question.correct),
        is_correct=kinds.score_choice(option_index, question.correct).right,
    )


def judge_rating(question: Question, question_index: int, rating: int) -> Judgement | None:
    """A flashcard's self-rating (0 = Again .. 3 = Easy, `kinds.FLASHCARD_RATINGS`) as the
    virtual option it is recorded as; None for another kind or a rating no button carries."""
    if question.kind is not QuestionKind.FLASHCARD or not 0 <= rating < len(FLASHCARD_RATINGS):
        return None
    right = kinds.score_rating(rating).right
    return Judgement(question_index, rating, rating, rating, right)


def judge_number(question: Question, question_index: int, typed: float) -> Judgement | None:
    """A typed value for a `number` question, as the virtual option it is recorded as
    (`NUMBER_RIGHT` or `NUMBER_WRONG`); None when the question is not a number question."""
    if question.number is None:
        return None
    right = score_number(typed, question.number).right
    chosen = NUMBER_RIGHT if right else NUMBER_WRONG
    return Judgement(question_index, chosen, chosen, NUMBER_RIGHT, right)


@dataclass(frozen=True, slots=True)
class SetJudgement:
    """A submitted selection of a `multiple` question: option indexes, and its score."""

    question_index: int
    selected: frozenset[int]
    key: frozenset[int]
    score: kinds.Score

    @property
    def is_correct(self) -> bool:
        return self.score.right

    @property
    def option_index(self) -> int:
        """The first selected option: what a row's one-option columns record."""
        return min(self.selected)


def judge_selection(
    question: Question, question_index: int, selected: frozenset[int]
) -> SetJudgement | None:
    """Score a submitted selection; None when it is empty or names no option of the question."""
    if not selected or not all(0 <= i < len(question.options) for i in selected):
        return None
    return SetJudgement(
        question_index, selected, question.key, kinds.score_multiple(selected, question.key)
    )


@dataclass(frozen=True, slots=True)
class Attempt:
    """One learner working through one quiz in a private chat."""

    id: int
    user_id: int
    quiz_id: str
    orders: OptionOrders
    answers: tuple[int | None, ...]  # option index chosen per question, None if not yet
    status: Status = Status.ACTIVE
    version: str = ""  # the quiz's content version when the attempt started
    # kind: multiple: the submitted option ids per question index (absent: not submitted, or
    # another kind); `answers` holds its first option, so `current` works for every kind. Ids,
    # as stored with the answer; `selected_indexes` maps them through the question.
    selections: tuple[tuple[int, frozenset[str]], ...] = ()

    def selected_indexes(self, question: Question, question_index: int) -> frozenset[int] | None:
        """The submitted set of a `multiple` question as option indexes; None if none."""
        for index, ids in self.selections:
            if index == question_index:
                return frozenset(i for i, o in enumerate(question.options) if o.id in ids)
        return None

    @property
    def current(self) -> int:
        """Index of the first unanswered question (== number of questions when all are done)."""
        for i, chosen in enumerate(self.answers):
            if chosen is None:
                return i
        return len(self.answers)


def new_attempt(
    attempt_id: int, user_id: int, quiz: Quiz, rng: random.Random, shuffle: bool = True
) -> Attempt:
    return Attempt(
        id=attempt_id,
        user_id=user_id,
        quiz_id=quiz.id,
        orders=option_orders(quiz, rng, shuffle),
        answers=(None,) * len(quiz.questions),
        version=quiz.version,
    )


@dataclass(frozen=True, slots=True)
class AnswerOutcome:
    verdict: Verdict
    attempt: Attempt
    judgement: Judgement | SetJudgement | None = None

    @property
    def finished(self) -> bool:
        return self.attempt.status is Status.FINISHED


def closed_verdict(attempt: Attempt, quiz: Quiz, question_index: int) -> Verdict | None:
    """Why an answer to question `question_index` changes nothing, whatever its kind (the
    attempt is over, the question was answered, or it is not the current one); None if open."""
    if attempt.status is not Status.ACTIVE or not 0 <= question_index < len(quiz.questions):
        return Verdict.CLOSED
    if attempt.answers[question_index] is not None:
        return Verdict.ALREADY_ANSWERED
    if question_index != attempt.current:
        return Verdict.CLOSED
    return None


def record(
    attempt: Attempt, question: Question, judgement: Judgement | SetJudgement | None
) -> AnswerOutcome:
    """The attempt with a judged answer recorded (INVALID when there was none to judge); a
    submitted set also keeps its option ids, which `score` compares with the key."""
    if judgement is None:
        return AnswerOutcome(Verdict.INVALID, attempt)
    question_index = judgement.question_index
    answers = list(attempt.answers)
    answers[question_index] = judgement.option_index
    done = all(a is not None for a in answers)
    selections = attempt.selections
    if isinstance(judgement, SetJudgement):
        ids = frozenset(question.options[i].id for i in judgement.selected)
        selections = (*selections, (question_index, ids))
    updated = replace(
        attempt,
        answers=tuple(answers),
        status=Status.FINISHED if done else Status.ACTIVE,
        selections=selections,
    )
    return AnswerOutcome(Verdict.ACCEPTED, updated, judgement)


@dataclass(frozen=True, slots=True)
class Score:
    """Right answers over the scored questions; flashcards are not scored, only counted in
    `flashcards` (those the learner rated)."""

    correct: int
    total: int
    missed: tuple[int, ...]  # question indexes answered wrongly or not at all
    flashcards: int = 0

    @property
    def ratio(self) -> float:
        return self.correct / self.total if self.total else 0.0


def score(
    quiz: Quiz,
    answers: Sequence[int | None],
    selections: Sequence[tuple[int, frozenset[str]]] = (),
) -> Score:
    """Right answers over the quiz; a `multiple` question counts as right only for the exact
    set of option ids (its partial credit is shown with the answer, not added here). Flashcards
    are left out of `correct`, `total` and `missed`: the learner rates them, nobody judges."""
    sets = dict(selections)

    def right(index: int, q: Question, chosen: int | None) -> bool:
        if q.kind is QuestionKind.MULTIPLE:
            return sets.get(index) == frozenset(q.options[i].id for i in q.key)
        return chosen == q.correct

    padded = [*answers, *([None] * (len(quiz.questions) - len(answers)))]
    missed = tuple(
        i
        for i, (q, chosen) in enumerate(zip(quiz.questions, padded, strict=False))
        if not q.flashcard and not right(i, q, chosen)
    )
    scored = sum(1 for q in quiz.questions if not q.flashcard)
    rated = sum(
        1
        for q, chosen in zip(quiz.questions, padded, strict=False)
        if q.flashcard and chosen is not None
    )
    return Score(correct=scored - len(missed), total=scored, missed=missed, flashcards=rated)


@dataclass(frozen=True, slots=True)
class Standing:
    """A group member's result in a run, for the leaderboard."""

    user_id: int
    name: str
    correct: int
    answered: int
    total_ms: int  # sum of answer times: the tie-breaker, faster first


def leaderboard(standings: Sequence[Standing], top: int = 10) -> list[Standing]:
    """Most correct first, ties broken by total answer time, then by user id for a stable order."""
    ranked = sorted(standings, key=lambda s: (-s.correct, s.total_ms, s.user_id))
    return ranked[:top]


def option_counts(order: Sequence[int], chosen_options: Sequence[int]) -> list[int]:
    """How many members chose each displayed position, from the option indexes they chose."""
    counts = [0] * len(order)
    position_of = {option: pos for pos, option in enumerate(order)}
    for option in chosen_options:
        if option in position_of:
            counts[position_of[option]] += 1
    return counts
