"""What a learner and a group have done: /stats and /groupstats, summarised from answer rows.

The store hands over counts; the core (`bot/core/stats.py`) says what they mean; this joins
them with the content (a guide per quiz) and the learner's days in their own time zone (their
/timezone, through `zone_of`; else the configured one), the zone their reminder uses too, so a
streak reads the same in /stats and in the reminder.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta, tzinfo
from zoneinfo import ZoneInfo

from bot.core.clock import Clock
from bot.core.models import Catalog, GuidePath
from bot.core.review import local_day, recall
from bot.core.stats import (
    Accuracy,
    QuestionStats,
    QuizScore,
    question_stats,
    quiz_scores,
    right_options_in,
    streak,
)
from bot.core.streaks import StreakStatus, streak_status
from bot.store.analytics import AnalyticsStore, GroupTotals
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.item_reports import QuizItems, analysed
from bot.usecases.spaced_review import SpacedReview

STREAK_LOOKBACK_DAYS = 400


@dataclass(frozen=True, slots=True)
class LearnerStats:
    scores: list[QuizScore]
    by_guide: list[tuple[GuidePath, Accuracy]]
    streak: int
    due: int
    queued: int
    # FSRS: the day the next question falls due (None: the queue is empty), and the recall it
    # predicts today for the learner's queue on average (None: empty).
    next_due_day: date | None = None
    recall: float | None = None
    # Finished exams, per quiz (their answers live in practice sets, not in `answers`).
    exams: list[QuizScore] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GroupReport:
    totals: GroupTotals
    questions: list[QuestionStats]
    # (quiz id, question id) -> learners' problem reports on it, counted over every learner:
    # reports are made privately, and a count of one small group's members could point at who.
    reports: Mapping[tuple[str, str], int] = field(default_factory=dict)
    # Item analysis per quiz over the group's runs (bot/usecases/item_reports.py).
    items: list[QuizItems] = field(default_factory=list)


ReportCounts = Callable[[Iterable[str]], Awaitable[dict[tuple[str, str], int]]]


class LearnerStatsCases(ServesCatalog):
    # A learner's own zone by user id (bot/usecases/reminders.py); None: the configured one.
    zone_of: Callable[[int], Awaitable[str]] | None = None
    # Problem reports per question (bot/usecases/problem_reporting.py); None: not shown.
    report_counts: ReportCounts | None = None

    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        analytics: AnalyticsStore,
        review: SpacedReview,
        *,
        clock: Clock = time.time,
        zone_of: Callable[[int], Awaitable[str]] | None = None,
        report_counts: ReportCounts | None = None,
    ) -> None:
        self.zone_of = zone_of  # the learner's own zone (streaks in their days)
        self.report_counts = report_counts  # problem reports per question, for /groupstats
        self._catalog_ref = catalog_ref(catalog)
        self.analytics = analytics
        self.review = review  # the queue's counts, after its inbox is drained
        self.clock = clock

    async def best_scores(self, user_id: int) -> dict[str, tuple[int, int]]:
        """Quiz id -> (best correct, its questions) over the learner's finished private attempts."""
        scores = quiz_scores(await self.analytics.finished_attempts(user_id))
        return {score.quiz_id: (score.best, score.best_total) for score in scores}

    async def _zone(self, user_id: int) -> tzinfo:
        return ZoneInfo(await self.zone_of(user_id)) if self.zone_of else self.review.tz

    async def stats(self, user_id: int) -> LearnerStats:
        await self.review.sync()
        now, tz = self.clock(), await self._zone(user_id)
        scores = quiz_scores(await self.analytics.finished_attempts(user_id))
        guides: dict[str, Accuracy] = {}
        for quiz_id, right, answered in await self.analytics.accuracy_by_quiz(user_id):
            quiz = self.catalog.quiz(quiz_id)
            if quiz is not None and quiz.guide is not None:
                guides[quiz.guide.id] = guides.get(quiz.guide.id, Accuracy()).plus(right, answered)
        by_guide = [
            (self.catalog.guides[g], acc) for g, acc in guides.items() if g in self.catalog.guides
        ]
        since = now - timedelta(days=STREAK_LOOKBACK_DAYS).total_seconds()
        days = {local_day(t, tz) for t in await self.analytics.activity_since(user_id, since)}
        queue = await self.review.store.items(user_id)
        exams = quiz_scores(await self.analytics.finished_exams(user_id))
        return LearnerStats(
            scores=[s for s in scores if self.catalog.quiz(s.quiz_id)],
            exams=[s for s in exams if self.catalog.quiz(s.quiz_id)],
            by_guide=by_guide,
            streak=streak(days, local_day(now, tz)),
            due=await self.review.store.due_count(user_id, now),
            queued=len(queue),
            next_due_day=local_day(min(i.due_at for i in queue), tz) if queue else None,
            recall=(
                sum(recall(i, now, tz, self.review.fsrs) for i in queue) / len(queue)
                if queue
                else None
            ),
        )

    async def streak_status(self, user_id: int) -> StreakStatus:
        """The learner's streak and whether it breaks tonight without activity (reminders)."""
        now, tz = self.clock(), await self._zone(user_id)
        since = now - timedelta(days=STREAK_LOOKBACK_DAYS).total_seconds()
        days = {local_day(t, tz) for t in await self.analytics.activity_since(user_id, since)}
        return streak_status(days, local_day(now, tz))

    async def group_report(self, chat_id: int) -> GroupReport:
        totals = await self.analytics.group_totals(chat_id)
        rows = await self.analytics.group_answer_counts(chat_id)
        questions = question_stats(rows, right_options=right_options_in(self.catalog))
        reports = {}
        if self.report_counts is not None and questions:
            reports = await self.report_counts({q.quiz_id for q in questions})
        items = analysed(self.catalog, await self.analytics.item_responses(chat_id))
        return GroupReport(totals, questions, reports, items)
