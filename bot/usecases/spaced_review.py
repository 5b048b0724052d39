"""Spaced review: the queue of missed questions, /review and its buttons, and the notice after a
group run (daily reminders: bot/usecases/reminders.py).

Wrong answers reach the queue through an inbox that a trigger on `answers` fills (migrations 003
and 006): private quizzes, group runs and any future way of answering feed reviews without
calling this service. Every miss carries its question id, so the queue never depends on where a
question sits in its quiz. `sync` drains the inbox (due dates are days in the learner's time
zone, their /timezone else the bot's, which SQL cannot compute); it runs before anything reads
the queue (/review, /stats, a reminder, a group-miss notice).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import tzinfo
from zoneinfo import ZoneInfo

from fsrs import Rating, Scheduler

from bot.core import answers
from bot.core.answers import Answer
from bot.core.clock import Clock
from bot.core.engine import Judgement, SetJudgement
from bot.core.kinds import QuestionKind
from bot.core.models import Catalog, Question, Quiz
from bot.core.review import (
    DEFAULT_RETENTION,
    ReviewItem,
    after_miss,
    after_review,
    decode_order,
    first_rating,
    flashcard_rating,
    median_time,
    rating_for,
    recall,
    review_order,
    scheduler,
)
from bot.store.reviews import ReviewStore
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.private_answers import option_id

MEDIAN_SECONDS = 600.0  # how long a question's median answer time is reused
MEDIANS_KEPT = 10_000  # questions whose median is kept in memory at once


@dataclass(frozen=True, slots=True)
class ReviewCard:
    """A due question as served: its options in a fresh order."""

    item_id: int
    item: ReviewItem
    quiz: Quiz
    question: Question
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ReviewResult:
    card: ReviewCard
    judgement: Judgement | SetJudgement  # a set: a select-all question's submitted selection
    after: ReviewItem  # FSRS's new state and due day
    rating: Rating


@dataclass(frozen=True, slots=True)
class NothingDue:
    next_at: float | None  # when the next question falls due; None: the queue is empty


class SpacedReview(ServesCatalog):
    # A learner's own zone by user id (their /timezone, else the bot's: LearnerReminders.zone,
    # kept in memory with their language, so no store read per update); None: `timezone` for all.
    zone_of: Callable[[int], Awaitable[str]] | None = None

    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        store: ReviewStore,
        *,
        timezone: str = "UTC",
        clock: Clock = time.time,
        rng: random.Random | None = None,
        retention: float = DEFAULT_RETENTION,
        zone_of: Callable[[int], Awaitable[str]] | None = None,
    ) -> None:
        self.zone_of = zone_of  # the learner's own zone: due dates fall on their days
        self._catalog_ref = catalog_ref(catalog)
        self.store = store
        self.retention = retention
        # The deployment's FSRS: the package's parameters until the stored ones are read (once
        # per process, by the first `sync`; `quizbot review optimize` takes effect on restart).
        self.fsrs: Scheduler = scheduler(retention)
        self._fsrs_loaded = False
        # Questions' median answer times (ms) by (quiz id, question id), with when they were
        # read: a median moves slowly, and reading it on every tap cost more than FSRS itself.
        self._medians: dict[tuple[str, str], tuple[float, float]] = {}
        self.tz = ZoneInfo(timezone)
        self.timezone = timezone
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self._sync_lock = asyncio.Lock()

    def question(self, quiz_id: str, question_id: str) -> tuple[Quiz, Question] | None:
        """The question a queue item names; None once it left the content. Every kind is
        reviewed: a select-all card has toggles and Submit (bot/usecases/round_answers.py)."""
        quiz = self.catalog.known(quiz_id)  # a group's own quiz too: met there, reviewed here
        found = next((q for q in quiz.questions if q.id == question_id), None) if quiz else None
        return (quiz, found) if quiz and found else None

    async def zone(self, user_id: int) -> tzinfo:
        """The zone of the learner's days: their due dates and the dates shown to them."""
        return ZoneInfo(await self.zone_of(user_id)) if self.zone_of else self.tz

    # -- the inbox of wrong answers ------------------------------------------------------------

    async def sync(self) -> int:
        """Move every pending wrong answer into its learner's queue; how many were read."""
        total = 0
        async with self._sync_lock:
            if not self._fsrs_loaded:
                self._fsrs_loaded = True
                if (parameters := await self.store.parameters()) is not None:
                    self.fsrs = scheduler(self.retention, parameters)
            while misses := await self.store.pending_misses():
                zones = {m.user_id: await self.zone(m.user_id) for m in misses}
                items = [
                    after_miss(
                        m.user_id,
                        m.quiz_id,
                        m.question_id,
                        m.answered_at,
                        zones[m.user_id],
                        self.fsrs,
                    )
                    for m in misses
                    if m.question_id  # unknown: its question had left the content already
                ]
                items.sort(key=lambda i: i.last_seen_at)  # a later miss of one question wins
                await self.store.ingest(items, misses)
                total += len(misses)
        return total

    # -- /review ------------------------------------------------------------------------------

    async def next_card(self, user_id: int) -> ReviewCard | None:
        """The learner's most overdue question, options reshuffled; None when nothing is due."""
        await self.sync()
        while found := await self.store.next_due(user_id, self.clock()):
            item_id, item = found
            located = self.question(item.quiz_id, item.question_id)
            if located is None:
                await self.store.drop(item_id)
                continue  # the question left the content: drop it from the queue
            quiz, question = located
            order = review_order(
                len(question.options), self.rng, question.kind is not QuestionKind.TRUE_FALSE
            )
            return ReviewCard(item_id, item, quiz, question, order)
        return None

    async def answer(
        self,
        user_id: int,
        item_id: int,
        order_text: str,
        position: int,
        *,
        round_step: tuple[int, int] | None = None,
        elapsed_ms: int | None = None,
    ) -> ReviewResult | None:
        """A tap on a due question's card, its order as the button carried it: `reviewed`, for
        callers that hold only the button's data (the benchmark, tests)."""

        def decide(question: Question) -> tuple[Judgement | SetJudgement | None, tuple[int, ...]]:
            shown = () if question.flashcard else decode_order(order_text, len(question.options))
            if shown is None:
                return None, ()
            return answers.judge(question, shown, 0, answers.tap(question, position)), shown

        return await self._reviewed(user_id, item_id, decide, round_step, elapsed_ms)

    async def reviewed(
        self,
        user_id: int,
        item_id: int,
        order: tuple[int, ...],
        answer: Answer,
        *,
        round_step: tuple[int, int] | None = None,
        elapsed_ms: int | None = None,
    ) -> ReviewResult | None:
        """Judge an answer of any kind to a due question shown in `order` (bot/core/answers.py)
        and reschedule the question by FSRS; None if it changes nothing (not this learner's, no
        longer due, already answered, forged). With `round_step` (round id, card index:
        bot/usecases/round_answers.py) the round moves on in the same write; `elapsed_ms` (card
        to answer, when the round timed it) decides Hard and Easy, and a select-all answer that
        is partly right is shown as a miss but rated Hard, not Again."""
        return await self._reviewed(
            user_id,
            item_id,
            lambda question: (answers.judge(question, order, 0, answer), order),
            round_step,
            elapsed_ms,
        )

    async def _reviewed(
        self,
        user_id: int,
        item_id: int,
        decide: Callable[[Question], tuple[Judgement | SetJudgement | None, tuple[int, ...]]],
        round_step: tuple[int, int] | None,
        elapsed_ms: int | None,
    ) -> ReviewResult | None:
        """What every kind of answer shares: the learner's due item, its question still in the
        content, `decide`'s judgement (with the card's displayed order), its FSRS rating (timed
        against the question's median) and new state, stored with the round's step in one
        write."""
        item = await self.store.item(item_id)
        now = self.clock()
        if item is None or item.user_id != user_id or not item.is_due(now):
            return None
        located = self.question(item.quiz_id, item.question_id)
        if located is None:
            return None
        quiz, question = located
        judgement, order = decide(question)
        if judgement is None:
            return None
        median = None
        if judgement.is_correct and elapsed_ms is not None and not question.flashcard:
            median = await self._median(item.quiz_id, item.question_id, now)
        partial = isinstance(judgement, SetJudgement) and 0 < judgement.score.fraction < 1
        rating = rating_for(judgement.is_correct, elapsed_ms, median, partial=partial)
        if question.flashcard:  # the learner's own rating replaces the answer's
            rating = flashcard_rating(judgement.option_index)
        after = after_review(item, rating, now, await self.zone(user_id), self.fsrs)
        typed = question.kind is QuestionKind.NUMBER  # no options: a typed value
        shown_id = "" if typed else option_id(question, judgement.option_index)
        if not await self.store.reviewed(
            item_id,
            item,
            after,
            judgement.is_correct,
            now,
            rating=int(rating),
            elapsed_ms=elapsed_ms,
            option_id=shown_id,
            version=quiz.version,
            round_step=round_step,
        ):
            return None
        return ReviewResult(
            ReviewCard(item_id, item, quiz, question, order), judgement, after, rating
        )

    async def rate_flashcard(
        self, user_id: int, quiz_id: str, question_id: str, rating_index: int
    ) -> ReviewItem:
        """A flashcard the learner rated in a quiz (0 = Again .. 3 = Easy): their rating goes
        to FSRS as it is, on the card they have (a queued one) or a new one, and the card joins
        their queue at FSRS's due day. An Again is stored as a miss and reaches the queue
        through the inbox like any miss, so it is only computed here (to say when it is due)."""
        rating = flashcard_rating(rating_index)
        now, tz = self.clock(), await self.zone(user_id)
        if rating is Rating.Again:
            return first_rating(user_id, quiz_id, question_id, rating, now, tz, self.fsrs)
        await self.sync()
        queued = await self.store.find(user_id, quiz_id, question_id)
        if queued is not None and queued.last_seen_at < now:
            after = after_review(queued, rating, now, tz, self.fsrs)
        else:
            after = first_rating(user_id, quiz_id, question_id, rating, now, tz, self.fsrs)
        await self.store.rated(after, int(rating))
        return after

    async def _median(self, quiz_id: str, question_id: str, now: float) -> float | None:
        """The question's median answer time, read at most every MEDIAN_SECONDS per process
        (none yet is not kept: the next timed answer may be the one that makes it)."""
        key = (quiz_id, question_id)
        if (kept := self._medians.get(key)) is not None and now - kept[0] < MEDIAN_SECONDS:
            return kept[1]
        median = median_time(await self.store.answer_times(quiz_id, question_id))
        if median is not None:
            if len(self._medians) >= MEDIANS_KEPT:
                self._medians.clear()  # bounded: a full cache starts over
            self._medians[key] = (now, median)
        return median

    async def serve(self, user_id: int) -> ReviewCard | NothingDue:
        """/review and its "next" button: the most overdue question, or when one falls due."""
        card = await self.next_card(user_id)
        return card if card is not None else NothingDue(await self.store.next_due_at(user_id))

    async def recall_of(self, item: ReviewItem) -> float:
        """FSRS's predicted chance that the learner recalls `item` today (their day)."""
        return recall(item, self.clock(), await self.zone(item.user_id), self.fsrs)

    async def due_count(self, user_id: int) -> int:
        await self.sync()
        return await self.store.due_count(user_id, self.clock())

    # -- group runs ---------------------------------------------------------------------------

    async def group_misses(self, attempt_id: int) -> dict[int, int]:
        """Members to tell that a run's misses joined their queue: user id -> questions missed.

        Only members who started the bot privately (Telegram forbids writing first) and were
        not told about this run yet; the caller claims each with `claim_notice` before sending.
        """
        await self.sync()
        return await self.store.run_misses(attempt_id)

    async def claim_notice(self, attempt_id: int, user_id: int) -> bool:
        return await self.store.mark_notified(attempt_id, user_id, self.clock())
