"""Use cases of /practice: choose guides, a level and a length; answer; the score at the end.

Questions come from every quiz that matches, drawn by bot/core/practice.py so none repeats until
the learner has seen them all. A missed question joins the review queue as a miss anywhere does
(box 1, due the next day in the learner's zone) at once, since practice answers are not rows of
`answers` that the review inbox trigger would see.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.core.clock import Clock
from bot.core.engine import Judgement, judge
from bot.core.models import Catalog, Level, Question, Quiz
from bot.core.practice import LENGTHS, QuestionKey, draw, matching_quizzes, pool_of
from bot.core.review import after_miss
from bot.store.practice_sets import PracticeStore, StoredSet
from bot.store.reviews import ReviewStore


@dataclass(frozen=True, slots=True)
class PracticeQuestion:
    """Question `index` of set `set_id`, with its options in display order."""

    set_id: int
    index: int
    total: int
    quiz: Quiz
    question: Question
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NothingMatches:
    """No quiz matches the choice (or a forged length): nothing started."""


@dataclass(frozen=True, slots=True)
class PracticeAnswered:
    asked: PracticeQuestion
    judgement: Judgement
    following: PracticeQuestion | None  # None after the last question
    correct: int  # right answers so far
    missed: int  # questions missed so far (each joined the review queue)


@dataclass(frozen=True, slots=True)
class PracticeClosed:
    """Not this learner's set, already answered, or the set is over: nothing changed."""


class PracticeSession:
    def __init__(
        self,
        catalog: Catalog,
        store: PracticeStore,
        reviews: ReviewStore,
        *,
        timezone: str = "UTC",
        clock: Clock = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.catalog = catalog
        self.store = store
        self.reviews = reviews
        self.tz = ZoneInfo(timezone)
        self.clock = clock
        self.rng = rng or random.SystemRandom()

    def _located(self, key: QuestionKey) -> tuple[Quiz, Question] | None:
        quiz = self.catalog.quiz(key.quiz_id)
        found = next((q for q in quiz.questions if q.id == key.question_id), None) if quiz else None
        return (quiz, found) if quiz and found else None

    def _question(self, stored: StoredSet, index: int) -> PracticeQuestion | None:
        located = self._located(stored.questions[index])
        if located is None:
            return None
        quiz, question = located
        order = stored.orders[index]
        return PracticeQuestion(stored.id, index, len(stored.questions), quiz, question, order)

    async def start(
        self, user_id: int, guides: set[str], level: Level | None, length: int
    ) -> PracticeQuestion | NothingMatches:
        """A new set of `length` questions; any set still running is abandoned."""
        pool = pool_of(matching_quizzes(self.catalog, guides, level))
        if length not in LENGTHS or not pool:
            return NothingMatches()
        drawn = draw(pool, await self.store.seen(user_id), length, self.rng)
        orders = []
        for key in drawn.questions:
            located = self._located(key)
            assert located is not None  # the pool came from the catalogue
            order = list(range(len(located[1].options)))
            self.rng.shuffle(order)
            orders.append(order)
        set_id = await self.store.start(
            user_id,
            drawn.questions,
            orders,
            sorted(drawn.seen, key=QuestionKey.encode),
            self.clock(),
        )
        stored = await self.store.get(set_id)
        first = self._question(stored, 0) if stored else None
        return first if first is not None else NothingMatches()

    async def answer(
        self, user_id: int, set_id: int, index: int, position: int
    ) -> PracticeAnswered | PracticeClosed:
        stored = await self.store.get(set_id)
        if stored is None or stored.user_id != user_id or stored.status != "active":
            return PracticeClosed()
        if index != stored.answered or not 0 <= index < len(stored.questions):
            return PracticeClosed()
        asked = self._question(stored, index)
        judgement = judge(asked.question, asked.order, index, position) if asked else None
        if asked is None or judgement is None:
            return PracticeClosed()
        now = self.clock()
        total = len(stored.questions)
        if not await self.store.answer(set_id, index, judgement.is_correct, total, now):
            return PracticeClosed()  # a double tap lost the race: the first one counted
        if not judgement.is_correct:
            miss = after_miss(user_id, asked.quiz.id, asked.question.id, now, self.tz)
            await self.reviews.ingest([miss], [])
        correct = stored.correct + int(judgement.is_correct)
        missed = index + 1 - correct
        following = self._question(stored, index + 1) if index + 1 < total else None
        return PracticeAnswered(asked, judgement, following, correct, missed)
