"""Every handler object, built once with the use cases it calls (`HandlerSet`, a part of
`QuizBot`); handler_order.py registers them in the order PTB tries them.

Building is apart from registering: the button router needs every handler object, and its
place is first. The handlers are attributes of the bot (`bot.runner`, `bot.group_handlers`...)
because the command line, the benchmark and the tests reach them there.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.ext import Application

from bot.compose import Services
from bot.content.reload import ReloadResult
from bot.store.courtesy_log import CourtesyStore
from bot.store.daily_dues import DailyDueStore
from bot.store.forget import ForgetStore
from bot.store.interface import Engine
from bot.tg.buttons import ButtonRouter
from bot.tg.context import BotContext
from bot.tg.forget_handlers import ForgetHandlers
from bot.tg.group_answer_handlers import GroupAnswerHandlers
from bot.tg.group_handlers import GroupHandlers
from bot.tg.group_run_handlers import GroupRunner
from bot.tg.member_replies import CourtesyReplies
from bot.tg.mini_app import status_in
from bot.tg.number_handlers import TypedReplies
from bot.tg.options import BotOptions
from bot.tg.owner import OwnerHandlers
from bot.tg.practice_handlers import PracticeHandlers
from bot.tg.private_handlers import PrivateHandlers
from bot.tg.progress_handlers import ProgressHandlers
from bot.tg.reminder_handlers import ReminderHandlers
from bot.tg.report_handlers import ReportHandlers
from bot.tg.rounds_handlers import RoundHandlers
from bot.tg.share_handlers import ShareHandlers
from bot.tg.standings_handlers import StandingsHandlers
from bot.tg.topic_handlers import TopicHandlers
from bot.tg.upload_handlers import UploadHandlers
from bot.tg.wire.photos import PhotoSender
from bot.tg.wire.timer_backends import JobTimers, Timers
from bot.tg.wrong_chat_handlers import WrongChat
from bot.usecases.catalog_ref import CatalogRef
from bot.usecases.forgetting import Forgetting
from bot.usecases.group_admins import ADMIN_STATUSES, AdminCache
from bot.usecases.group_answers import GroupAnswers
from bot.usecases.group_courtesy import GroupCourtesy
from bot.usecases.group_runs import GroupRuns
from bot.usecases.group_schedules import GroupSchedules
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.group_standings import GroupStandings
from bot.usecases.learner_profile import Learners
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.practice_session import PracticeSession
from bot.usecases.private_answers import PrivateSelections
from bot.usecases.private_quiz import PrivateQuiz
from bot.usecases.problem_reporting import ProblemReporting
from bot.usecases.quiz_sharing import QuizSharing
from bot.usecases.quiz_uploads import QuizUploads
from bot.usecases.reminders import LearnerReminders
from bot.usecases.review_rounds import ReviewRounds
from bot.usecases.spaced_review import SpacedReview


class HandlerSet:
    """The handler-building part of `QuizBot` (bot/tg/app.py), which sets what it reads here
    before it builds the application (the use cases by name, the photo sender)."""

    options: BotOptions
    services: Services
    catalog_ref: CatalogRef
    db: Engine
    photos: PhotoSender
    learners: Learners
    quiz: PrivateQuiz
    selections: PrivateSelections
    standings: GroupStandings
    group_settings: GroupSettingsCases
    group_runs: GroupRuns
    group_schedules: GroupSchedules
    group_answers: GroupAnswers
    uploads: QuizUploads
    review: SpacedReview
    review_rounds: ReviewRounds
    learner_stats: LearnerStatsCases
    practice: PracticeSession
    reminders: LearnerReminders
    reporting: ProblemReporting
    sharing: QuizSharing
    reload_content: Callable[[], Coroutine[Any, Any, ReloadResult]]  # bot/tg/served_content.py
    _serve_uploaded: Callable[..., None]  # ... an uploaded quiz served

    def _make_handlers(self, app: Application) -> None:  # type: ignore[type-arg]
        """Every handler object, built once with the use cases it calls (registered in
        bot/tg/handler_order.py, apart from building: the button router needs them all, and
        its place is first)."""
        typed = self.services.typed_answers
        private = PrivateHandlers(
            self.quiz,
            self.learners,
            self.catalog_ref,
            self.learner_stats,
            typed,
            self.photos,
            selections=self.selections,
        )
        private.zone = self.review.zone  # a rated flashcard's next review day
        self.private_handlers = private
        # A command in the wrong kind of chat says where it works (tg/wrong_chat_handlers.py).
        self.wrong_chat = WrongChat(
            lambda *args, **kwargs: self.courtesy.say(*args, **kwargs), self.learners.greet
        )
        self.owner_handlers = OwnerHandlers(self.options.owner_ids, self.reload_content)
        self._make_group_handlers(app)
        self._make_progress_handlers(app)
        self.forget_handlers = ForgetHandlers(
            Forgetting(
                ForgetStore(self.db),
                [
                    self.quiz.forget_cached,
                    typed.forget_cached,
                    self.round_replies.forget_cached,
                    self.learners.forget_cached,
                    self.reminder_handlers.unregister,
                ],
            )
        )
        self.practice_handlers = PracticeHandlers(self.practice, self.catalog_ref)
        self.practice_handlers.photos = self.photos  # pictured questions in practice and exams
        self.practice_handlers.use_timers(self.timers, app.bot, self.learners)  # exam clocks
        self.report_handlers = ReportHandlers(self.reporting, private.unknown)
        # Every button, whatever its chat: the router binds each kind to its chat type.
        self.buttons = ButtonRouter(
            private,
            self.group_handlers,
            self.round_handlers,
            self.standings_handlers,
            self.practice_handlers,
            self.upload_handlers,
            self.reminder_handlers,
            self.report_handlers,
            self.group_answer_handlers,
        )
        self.wrong_chat.openers.update(
            stats=self.progress_handlers.stats,
            review=self.round_handlers.review,
            remind=self.reminder_handlers.remind,
            language=private.language,
            forget=self.forget_handlers.command,
            practice=self.practice_handlers.practice,
            exam=self.practice_handlers.exam,
        )
        # A text that is no command: the answer to an open number question (a quiz's, or a
        # review card's), else a waiting report's sentence, else handed on (the hint).
        self.typed_replies = TypedReplies(
            typed, self.report_handlers.text, self.round_handlers.typed_cards.reply
        )

    async def stop_command(self, update: Update, context: BotContext) -> None:
        """/stop in private: an open review or practice round first (rounds are short, and the
        learner is in one when they have one open), else a running exam, else the running quiz.
        Whether a quiz waits is read only when a round or an exam stopped (their message says
        so): a /stop about the quiz does not read it twice (issue 32)."""
        user_id = context.learner.user_id

        async def waiting() -> bool:
            return await self.quiz.running(user_id) is not None

        if await self.round_handlers.stop(update, context, quiz_waiting=waiting):
            return
        if not await self.practice_handlers.stop(update, context, quiz_waiting=waiting):
            await self.private_handlers.stop(update, context)

    def _make_group_handlers(self, app: Application) -> None:  # type: ignore[type-arg]
        """Study groups: runs, settings, uploads, members' replies and standings."""

        async def member_status(chat_id: int, user_id: int) -> str:
            status = await status_in(app.bot, chat_id, user_id)
            if status in ADMIN_STATUSES:  # seen as an admin: their private uploads offer it
                await self.uploads.seen(chat_id, user_id)
            return status

        self.admins = AdminCache(member_status, self.options.clock)
        dues = DailyDueStore(self.db)  # one process's daily timers across a restart
        self.timers: Timers = (
            self.options.timers(dues) if self.options.timers else JobTimers(app, dues)
        )
        self.runner = GroupRunner(
            app,
            self.group_runs,
            self.group_settings,
            self.group_schedules,
            self.admins,
            self.timers,
            self.options.live,
            self.photos,
            self.options.run_watchdog,
        )
        group = GroupHandlers(
            self.group_settings,
            self.group_runs,
            self.group_schedules,
            self.runner,
            self.admins,
            self.catalog_ref,
        )
        self.group_handlers = group
        # Every group command goes through `guard`: a member's reply is a courtesy reply, decided
        # before the command runs (bot/core/courtesy.py) and sent after the run's own sends.
        cases = GroupCourtesy(CourtesyStore(self.db), self.group_runs, self.options.clock)
        self.courtesy = CourtesyReplies(cases, self.admins, self.group_settings, self.runner)
        group.say = self.courtesy.say
        group.welcome = cases.welcome  # the how-to once when a startgroup link adds the bot
        group.topic_names = self.services.forum_topics.names  # /stop names where quizzes play
        self.runner.on_moved.append(self.uploads.moved)
        upload = UploadHandlers(
            self.uploads,
            self.group_settings,
            self.admins,
            self.runner,
            serve=self._serve_uploaded,
            shipped_ids=lambda: set(self.catalog_ref.current.quizzes),
            guides=lambda: self.catalog_ref.current.guides,
        )
        group.upload_buttons = upload.button
        group.on_added = self.uploads.seen  # whoever adds the bot: their private uploads offer it
        self.upload_handlers = upload
        # A member's reply to a run's number question (typed answers on); other text is chat.
        self.group_answer_handlers = GroupAnswerHandlers(
            self.group_settings, self.group_answers, self.courtesy
        )  # members' taps and toggles too (the button router)
        # A forum topic created or renamed: its name kept, for /schedules.
        self.topic_handlers = TopicHandlers(self.services.forum_topics)
        # The bot added by a startgroup link (`/start@bot <quiz id>`) and inline mode.
        self.share_handlers = ShareHandlers(
            self.sharing, self.group_settings, self.runner, self.courtesy.say
        )
        # /top and /me in groups, members leaving or joining.
        self.standings_handlers = StandingsHandlers(
            self.standings, self.group_settings, self.courtesy.say, self.admins.forget
        )

    def _make_progress_handlers(self, app: Application) -> None:  # type: ignore[type-arg]
        """/stats, /review, /remind, /timezone in private, /groupstats in groups, review and
        reminder buttons."""

        async def group_language(chat_id: int) -> str:
            return (await self.group_settings.settings(chat_id)).language

        self.progress_handlers = ProgressHandlers(
            app,
            self.review,
            self.learner_stats,
            self.learners,
            self.catalog_ref,
            self.admins.is_admin,
            group_language,
        )
        handlers = self.progress_handlers
        handlers.dashboard = self.options.dashboard  # a button in /stats and /groupstats
        handlers.group_places = self.standings.across_groups  # /stats ends with the groups
        self.round_replies = self.services.round_replies
        rounds = RoundHandlers(app, self.review, self.review_rounds, self.round_replies)
        rounds.photos = self.photos  # review cards with pictures
        self.round_handlers = rounds

        async def after_run(run_id: int, chat_id: int) -> None:
            title = (await self.group_settings.settings(chat_id)).title
            await handlers.notify_group_misses(run_id, title)

        self.runner.on_finished.append(after_run)  # missed questions join members' queues
        # /timezone and /remind in private (a group's /timezone is the group handlers').
        self.reminder_handlers = ReminderHandlers(
            lambda: app.bot,
            self.reminders,
            self.learners,
            self.timers,
            rounds.start_review,
            self.options.clock,
        )
