"""An answer of any kind, and the one `judge` that says what it is worth.

A learner answers in four shapes: a tapped button (`Choice`, single and true/false), a submitted
set of buttons (`Selection`, select-all), a typed value (`Typed`, number) and a flashcard's
self-rating (`Rating`). Buttons carry *displayed positions*; `judge` maps them back through the
question's option order, so a forged or stale position never scores. The rules themselves stay
in bot/core/engine.py and kinds.py (`judge`, `judge_selection`, `judge_number`, `judge_rating`):
this module only picks the one that fits, so a use case handles every kind with one call, and an
answer of the wrong shape for its question (a tap on a select-all question, a typed value for a
flashcard) is judged None, like a button that never existed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.core import engine
from bot.core.engine import AnswerOutcome, Attempt, Judgement, SetJudgement
from bot.core.kinds import ONE_TAP, QuestionKind
from bot.core.models import Question, Quiz


@dataclass(frozen=True, slots=True)
class Choice:
    """The displayed position of the button tapped (0 = A)."""

    position: int


@dataclass(frozen=True, slots=True)
class Selection:
    """The displayed positions of the buttons selected when Submit was tapped."""

    positions: frozenset[int]


@dataclass(frozen=True, slots=True)
class Typed:
    """The value read from a typed reply (bot.core.kinds.parse_number)."""

    value: float


@dataclass(frozen=True, slots=True)
class Rating:
    """A flashcard's self-rating: 0 = Again .. 3 = Easy (kinds.FLASHCARD_RATINGS)."""

    rating: int


Answer = Choice | Selection | Typed | Rating


def judge(
    question: Question, order: Sequence[int], question_index: int, answer: Answer
) -> Judgement | SetJudgement | None:
    """What `answer` is worth for `question` shown in `order`; None when no such answer could
    be given (a position no button carried, an empty set, or the wrong shape for the kind)."""
    match answer:
        case Choice(position) if question.kind in ONE_TAP:
            return engine.judge(question, order, question_index, position)
        case Selection(positions) if question.kind is QuestionKind.MULTIPLE:
            if not all(0 <= p < len(order) for p in positions):
                return None
            options = frozenset(order[p] for p in positions)
            return engine.judge_selection(question, question_index, options)
        case Typed(value) if question.kind is QuestionKind.NUMBER:
            return engine.judge_number(question, question_index, value)
        case Rating(rating) if question.kind is QuestionKind.FLASHCARD:
            return engine.judge_rating(question, question_index, rating)
    return None


def tap(question: Question | None, position: int) -> Choice | Rating:
    """What a tap on an answer button means: a flashcard's buttons are its ratings, every other
    kind's are displayed positions (a position on a missing question is judged closed later)."""
    if question is not None and question.flashcard:
        return Rating(position)
    return Choice(position)


def positions(order: Sequence[int], options: frozenset[int]) -> frozenset[int]:
    """The displayed positions of option indexes (a pending selection is kept as options)."""
    return frozenset(order.index(option) for option in options if option in order)


def selected_ids(quiz: Quiz, index: int, selected: frozenset[int]) -> str:
    """The stored form of a selection: option ids in the question's order, comma-joined."""
    options = quiz.questions[index].options
    return ",".join(options[i].id for i in sorted(selected))


def units(question: Question, lang: str) -> tuple[str, ...]:
    """The units a typed reply may end with: the learner's language's and the English one."""
    found = (question.unit.get(lang), question.unit.get("en"))
    return tuple(dict.fromkeys(u for u in found if u))


def apply(attempt: Attempt, quiz: Quiz, question_index: int, answer: Answer) -> AnswerOutcome:
    """Record `answer` to question `question_index` of an attempt, or say why it changes
    nothing: the same rules for every kind (bot/core/engine.py `closed_verdict`, `record`)."""
    closed = engine.closed_verdict(attempt, quiz, question_index)
    if closed is not None:
        return AnswerOutcome(closed, attempt)
    question = quiz.questions[question_index]
    judgement = judge(question, attempt.orders[question_index], question_index, answer)
    return engine.record(attempt, question, judgement)
