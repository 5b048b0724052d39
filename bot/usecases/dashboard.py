"""Use cases of the Mini App dashboard: what a learner's page and a group admin's page show.

Read-only: the store's rows and the catalogue become view models with content attached, so the
web pages and their CSV files render the very same numbers. Who may see what is decided by the
web layer before these are called (a learner sees only themselves; a group only its admins),
except the answer keys of the content preview, decided here (`answer_keys`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.clock import Clock
from bot.core.dashboard_math import WEEKS_SHOWN, Week, hardest, weeks
from bot.core.models import Catalog, GuidePath, Question, Quiz
from bot.core.recurrence import next_daily
from bot.core.review import ReviewItem
from bot.core.schedule import decode_days
from bot.core.standings import Placed, rank
from bot.core.stats import (
    Accuracy,
    QuestionStats,
    QuizScore,
    chosen_options,
    question_stats,
    quiz_scores,
    right_options_in,
)
from bot.store.analytics import AnalyticsStore, GroupTotals
from bot.store.dashboard_reads import DashboardStore
from bot.store.group_rows import GroupSettings
from bot.store.groups import GroupStore
from bot.store.interface import Engine
from bot.store.reviews import ReviewStore
from bot.store.run_scores import StandingsStore
from bot.store.schedules import Schedule, ScheduleStore
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.item_reports import QuizItems, analysed
from bot.usecases.quiz_uploads import served_id

HARDEST_SHOWN = 10
Sync = Callable[[], Awaitable[object]]


@dataclass(frozen=True, slots=True)
class QueuedQuestion:
    item: ReviewItem
    quiz: Quiz
    question: Question


@dataclass(frozen=True, slots=True)
class LearnerPage:
    weeks: list[Week]
    by_guide: list[tuple[GuidePath, Accuracy]]
    overall: Accuracy
    queue: list[QueuedQuestion]
    due_now: int
    scores: list[tuple[QuizScore, Quiz]]
    zone: tzinfo  # the learner's days: their /timezone, else the bot's
    # Finished exams per quiz: their answers live in practice sets, not in `answers`.
    exams: list[tuple[QuizScore, Quiz]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class AnswerKeys:
    """Which questions of a previewed quiz show their right options and explanation."""

    every: bool  # the content's owners, a group's admins
    answered: frozenset[str] = frozenset()  # question ids whose verdict the learner was shown

    def shown(self, question_id: str) -> bool:
        return self.every or question_id in self.answered


@dataclass(frozen=True, slots=True)
class HardQuestion:
    quiz: Quiz
    question: Question
    stats: QuestionStats
    # language -> how many chose each option (canonical option order)
    chosen: dict[str, list[int]] = field(default_factory=dict)

    @property
    def position(self) -> int:
        """Where the question sits in its quiz now (its history is kept by id)."""
        return self.quiz.questions.index(self.question)


@dataclass(frozen=True, slots=True)
class Upcoming:
    schedule: Schedule
    quiz: Quiz | None  # None for "next", "random" and a quiz gone since
    next_at: float


@dataclass(frozen=True, slots=True)
class GroupPage:
    chat_id: int
    settings: GroupSettings | None
    timezone: ZoneInfo
    totals: GroupTotals
    weeks: list[Week]  # count = runs started, right = players summed over those runs
    hardest: list[HardQuestion]
    standings: list[Placed]  # /top's all-time table: one store query, one ranking rule
    upcoming: list[Upcoming]
    # Item analysis per quiz over the group's runs (bot/usecases/item_reports.py).
    items: list[QuizItems] = field(default_factory=list)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


class DashboardService(ServesCatalog):
    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        db: Engine,
        *,
        timezone: str = "UTC",
        clock: Clock = time.time,
        sync: Sync | None = None,
        owners: frozenset[int] = frozenset(),
    ) -> None:
        self._catalog_ref = catalog_ref(catalog)
        self.owners = owners  # QUIZBOT_OWNER_IDS: they run the content, keys included
        self.store = DashboardStore(db)
        self.analytics = AnalyticsStore(db)
        self.progress = ReviewStore(db)
        self.groups = GroupStore(db)
        self.schedules = ScheduleStore(db)
        self.standings = StandingsStore(db)
        self.tz = _zone(timezone)
        self.clock = clock
        # Run by the bot alongside (`quizbot run`): moves fresh misses into the review queue.
        self.sync = sync

    async def stored_language(self, user_id: int) -> str | None:
        return await self.store.stored_language(user_id)

    async def known_group(self, chat_id: int) -> bool:
        """The bot is in this group as far as it knows: a group it never saw (a made-up id) is
        nobody's to ask Telegram about."""
        settings = await self.groups.group(chat_id)
        return settings is not None and settings.member

    async def current_chat(self, chat_id: int) -> int:
        """The supergroup a group became, for a link from before Telegram upgraded it (it stays
        in the chat's history); else `chat_id` itself."""
        return await self.groups.moved_to(chat_id) or chat_id

    async def answer_keys(self, user_id: int, quiz: Quiz, *, group_admin: bool) -> AnswerKeys:
        """Who sees a quiz's key in the preview. The bot's owners and a group's admins (checked
        by the caller, as for the group's page) see every key of the shipped quizzes the preview
        lists, but those of their own running exam; a learner sees only those of questions
        whose verdict they were already shown, so a learner in an exam, or a member during a
        group run, cannot read the key of the question in front of them."""
        if user_id in self.owners:
            return AnswerKeys(every=True)
        # Anyone who adds the bot to a group of their own is its admin: that opens every key,
        # but not those of the viewer's own running exam.
        if group_admin and not await self.store.in_running_exam(user_id, quiz.id):
            return AnswerKeys(every=True)
        answered = await self.store.answered_outside_exams(user_id, quiz.id)
        return AnswerKeys(every=False, answered=frozenset(answered))

    async def learner(self, user_id: int) -> LearnerPage:
        if self.sync is not None:
            await self.sync()
        now = self.clock()
        chosen = await self.store.stored_timezone(user_id)  # the bot's own days for them
        tz = _zone(chosen) if chosen else self.tz
        since = now - timedelta(weeks=WEEKS_SHOWN).total_seconds()
        shown = weeks(await self.store.answers_since(user_id, since), tz, now)
        guides: dict[str, Accuracy] = {}
        overall = Accuracy()
        for quiz_id, right, answered in await self.analytics.accuracy_by_quiz(user_id):
            overall = overall.plus(right, answered)
            quiz = self.catalog.quiz(quiz_id)
            if quiz is not None and quiz.guide is not None:
                guides[quiz.guide.id] = guides.get(quiz.guide.id, Accuracy()).plus(right, answered)
        known = self.catalog.guides
        by_guide = [(known[g], a) for g, a in guides.items() if g in known]
        queue = []
        for item in await self.progress.items(user_id):
            # `known`: a group's own quiz too (served by id, never listed), as /review serves it
            # and /stats counts it: one queue everywhere (a deleted one leaves the queue).
            quiz = self.catalog.known(item.quiz_id)
            if quiz is None:
                continue  # the quiz left the content
            found = [q for q in quiz.questions if q.id == item.question_id]
            if found:
                queue.append(QueuedQuestion(item, quiz, found[0]))
        scores = []
        for score in quiz_scores(await self.analytics.finished_attempts(user_id)):
            quiz = self.catalog.quiz(score.quiz_id)
            if quiz is not None:
                scores.append((score, quiz))
        exams = []
        for score in quiz_scores(await self.analytics.finished_exams(user_id)):
            quiz = self.catalog.quiz(score.quiz_id)
            if quiz is not None:
                exams.append((score, quiz))
        return LearnerPage(
            exams=exams,
            weeks=shown,
            by_guide=by_guide,
            overall=overall,
            queue=queue,
            due_now=sum(1 for q in queue if q.item.is_due(now)),
            scores=scores,
            zone=tz,
        )

    def _scheduled(self, chat_id: int, quiz_id: str) -> Quiz | None:
        """What a schedule plays: the group's own quiz of that id first (as /schedules reads
        it), else a shipped one; None for "next", "random" and a quiz gone since."""
        return self.catalog.known(served_id(chat_id, quiz_id)) or self.catalog.quiz(quiz_id)

    async def group(self, chat_id: int) -> GroupPage:
        now = self.clock()
        settings = await self.groups.group(chat_id)
        tz = _zone(settings.timezone) if settings else self.tz
        runs = await self.store.group_runs(chat_id)
        counts = await self.analytics.group_answer_counts(chat_id)
        hard = []
        # Answers are kept by question and option ids: each counts for the same question and
        # option wherever they sit in the content now; a question that left it is left out.
        right = right_options_in(self.catalog)
        for stats in hardest(question_stats(counts, right_options=right), HARDEST_SHOWN):
            quiz = self.catalog.known(stats.quiz_id)  # a group's own quiz too, as /groupstats
            found = [q for q in quiz.questions if q.id == stats.question_id] if quiz else []
            if quiz is None or not found:
                continue  # content gone since
            question = found[0]
            positions = {option.id: k for k, option in enumerate(question.options)}
            chosen: dict[str, list[int]] = {}
            for quiz_id, question_id, lang, option, _, n in counts:
                if (quiz_id, question_id) != (stats.quiz_id, stats.question_id):
                    continue
                for option_id in chosen_options(option):  # each of a select-all set's
                    slot = positions.get(option_id)
                    if slot is not None:
                        row = chosen.setdefault(lang or "?", [0] * len(question.options))
                        row[slot] += n
            hard.append(HardQuestion(quiz, question, stats, dict(sorted(chosen.items()))))
        members = rank(await self.standings.tallies(chat_id))
        upcoming = []
        for schedule in await self.schedules.schedules(chat_id):
            days = decode_days(schedule.days)
            hour, minute = (int(p) for p in schedule.at_time.split(":"))
            if days:
                at = next_daily(now, hour, minute, tz, days)
                upcoming.append(Upcoming(schedule, self._scheduled(chat_id, schedule.quiz), at))
        upcoming.sort(key=lambda u: u.next_at)
        return GroupPage(
            chat_id=chat_id,
            settings=settings,
            timezone=tz,
            totals=await self.analytics.group_totals(chat_id),
            weeks=weeks(((r.started_at, r.players) for r in runs), tz, now),
            hardest=hard,
            standings=members,
            upcoming=upcoming,
            items=analysed(self.catalog, await self.analytics.item_responses(chat_id)),
        )
