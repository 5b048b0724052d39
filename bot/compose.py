"""The composition root of the use cases: `build_services` makes every one of them from plain
settings, a store engine and the catalogue holder, each given what it needs in its constructor,
in the one order their needs allow, and returns them frozen.

Nothing here is set on an object after it is built. Where two use cases need each other's
answers, the shared answer has one owner built first: a learner's time zone is `Learners.zone`
(streaks, due dates and reminders all read it), an exam in progress is
`PracticeSession.exam_running` (private quizzes and review rounds wait for it), a group's own
quizzes are `QuizUploads.own`. Only an entry point calls it (bot/cli, the sandbox, the
benchmark's bot process, the tests' harness; tests/test_layers.py holds the list) and hands the
result to the Telegram adapter (`bot.tg.app.QuizBot`), which builds its handlers around it; the
command line and the tests reach the same objects through it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from bot.core.clock import Clock
from bot.store.analytics import AnalyticsStore
from bot.store.group_settings_cache import CachedGroupSettings
from bot.store.groups import GroupStore
from bot.store.interface import Engine
from bot.store.learner_choices import CachedLearnerChoices
from bot.store.learners import LearnerStore
from bot.store.no_exam import CachedNoExam
from bot.store.practice_sets import PracticeStore
from bot.store.problem_reports import ProblemReportStore
from bot.store.quiz_plays import QuizPlays
from bot.store.review_sessions import RoundStore
from bot.store.reviews import ReviewStore
from bot.store.run_scores import StandingsStore
from bot.store.schedules import ScheduleStore
from bot.store.selections import SelectionStore
from bot.store.topic_names import TopicNameStore
from bot.store.uploads import UploadStore
from bot.usecases.catalog_ref import CatalogRef
from bot.usecases.forum_topics import ForumTopics
from bot.usecases.group_answers import GroupAnswers
from bot.usecases.group_runs import GroupRuns
from bot.usecases.group_schedules import GroupSchedules
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.group_standings import GroupStandings
from bot.usecases.kept_asked import KeptAsked, SharedAsked
from bot.usecases.kept_attempts import KeptAttempts, NoKeptAttempts
from bot.usecases.kept_runs import KeptRuns, StoredRuns
from bot.usecases.learner_profile import Learners
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.practice_session import PracticeSession
from bot.usecases.private_answers import PrivateSelections
from bot.usecases.private_quiz import PrivateQuiz
from bot.usecases.private_replies import TypedAnswers
from bot.usecases.problem_reporting import ProblemReporting
from bot.usecases.quiz_sharing import QuizSharing
from bot.usecases.quiz_uploads import QuizUploads
from bot.usecases.reminders import LearnerReminders
from bot.usecases.review_rounds import ReviewRounds
from bot.usecases.round_replies import RoundReplies
from bot.usecases.spaced_review import SpacedReview


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    """What the use cases are built from: plain values, read once from the bot's options."""

    content_dir: Path  # guides for uploaded quizzes
    default_language: str = "en"
    timezone: str = "UTC"  # learners' days until they choose a zone; reminders by default
    group_seconds: int = 30  # a newly joined group's seconds per question
    group_timezone: str = "UTC"
    question_seconds: float | None = None  # every group's seconds, overridden (tests)
    retention: float = 0.9  # FSRS's desired retention
    # several workers: no in-memory copy of what another may change (picks the plain stores
    # and the caches that believe nothing: docs/caches.md)
    shared: bool = False
    clock: Clock = time.time
    rng: random.Random | None = None


@dataclass(frozen=True, slots=True)
class Services:
    engine: Engine  # the store they write through (opened and closed by the bot)
    catalog_ref: CatalogRef  # the served catalogue, swapped by a reload
    learners: Learners
    quiz: PrivateQuiz
    selections: PrivateSelections
    typed_answers: TypedAnswers  # a number typed in reply to a private question
    standings: GroupStandings
    group_settings: GroupSettingsCases
    group_runs: GroupRuns
    group_answers: GroupAnswers  # every kind of member answer in a run
    group_schedules: GroupSchedules
    forum_topics: ForumTopics  # forum topics' names, as last heard
    uploads: QuizUploads
    review: SpacedReview
    review_rounds: ReviewRounds
    round_replies: RoundReplies  # a number typed to a round's open card
    learner_stats: LearnerStatsCases
    practice: PracticeSession
    reminders: LearnerReminders
    reporting: ProblemReporting
    sharing: QuizSharing


def build_services(settings: ServiceSettings, db: Engine, catalog: CatalogRef) -> Services:
    s, clock, rng = settings, settings.clock, settings.rng
    # A learner's choices, a group's settings and "no exam running" are kept in memory where
    # this process hears every change of them: alone, its own writes; several workers, each
    # other's through PostgreSQL LISTEN/NOTIFY (`PgDatabase(listen=True)`). Else they are read
    # every time.
    hears_all = not s.shared or db.changes.across_processes
    learner_store = CachedLearnerChoices(db) if hears_all else LearnerStore(db)
    learners = Learners(
        learner_store,
        default_language=s.default_language,
        default_timezone=s.timezone,
        clock=clock,
    )
    uploads = QuizUploads(s.content_dir, clock=clock, store=UploadStore(db))
    review = SpacedReview(
        catalog,
        ReviewStore(db),
        timezone=s.timezone,
        clock=clock,
        rng=rng,
        retention=s.retention,
        zone_of=learners.zone,
    )
    practice = PracticeSession(
        catalog,
        # "no exam running" kept where every exam start is heard (as a learner's choices)
        CachedNoExam(db) if hears_all else PracticeStore(db),
        ReviewStore(db),
        timezone=s.timezone,
        clock=clock,
        rng=rng,
        zone_of=learners.zone,
        fsrs_of=lambda: review.fsrs,  # a /practice miss is scheduled by the same FSRS
    )
    quiz = PrivateQuiz(
        catalog,
        learner_store,
        clock=clock,
        rng=rng,
        # several workers: another may answer or stop an attempt, so none is kept between taps
        kept=NoKeptAttempts() if s.shared else KeptAttempts(),
        exam_running=practice.exam_running,  # no private quiz goes on mid-exam
        flashcard_rated=review.rate_flashcard,  # a flashcard's rating goes to FSRS
    )
    group_store = CachedGroupSettings(db) if hears_all else GroupStore(db)
    standings = GroupStandings(StandingsStore(db), group_store, clock)
    group_settings = GroupSettingsCases(
        group_store,
        default_language=s.default_language,
        default_seconds=s.group_seconds,
        default_timezone=s.group_timezone,
        clock=clock,
    )
    reporting = ProblemReporting(
        catalog,
        learner_store,
        ProblemReportStore(db),
        rounds=RoundStore(db),  # ⚠️ Report on review and practice cards
        sets=PracticeStore(db),  # ⚠️ Report on /practice questions
        clock=clock,
    )
    learner_stats = LearnerStatsCases(
        catalog,
        AnalyticsStore(db),
        review,
        clock=clock,
        zone_of=learners.zone,
        report_counts=reporting.counts,  # counts in /groupstats
    )
    group_runs = GroupRuns(
        catalog,
        group_store,
        group_settings,
        seconds_override=s.question_seconds,
        clock=clock,
        rng=rng,
        standings=standings,
        # several workers: another may reveal or open a question, so runs are read each time
        kept=StoredRuns(group_store) if s.shared else KeptRuns(group_store),
        own_quizzes=uploads.own,
    )
    review_rounds = ReviewRounds(
        review,
        RoundStore(db),
        clock=clock,
        exam_running=practice.exam_running,
        selections=SelectionStore(db),
    )
    return Services(
        engine=db,
        catalog_ref=catalog,
        learners=learners,
        quiz=quiz,
        selections=PrivateSelections(quiz, SelectionStore(db), clock=clock),
        # several workers: which question a typed reply answers is read from the store
        typed_answers=TypedAnswers(quiz, SharedAsked() if s.shared else KeptAsked()),
        standings=standings,
        group_settings=group_settings,
        group_runs=group_runs,
        group_answers=GroupAnswers(group_runs, SelectionStore(db), clock=clock),
        group_schedules=GroupSchedules(
            catalog, ScheduleStore(db), clock=clock, own_ids=uploads.own
        ),
        forum_topics=ForumTopics(TopicNameStore(db), clock=clock),
        uploads=uploads,
        review=review,
        review_rounds=review_rounds,
        round_replies=RoundReplies(review_rounds, SharedAsked() if s.shared else KeptAsked()),
        learner_stats=learner_stats,
        practice=practice,
        reminders=LearnerReminders(
            learners,
            ReviewStore(db),
            review,
            learner_stats,
            default_timezone=s.timezone,
            clock=clock,
        ),
        reporting=reporting,
        sharing=QuizSharing(catalog, QuizPlays(db), clock=clock, own_quizzes=uploads.own),
    )
