"""Wiring: build the PTB Application and every handler (registered in handler_order.py, in
the order PTB tries them), open and close resources.

`QuizBot` is what `quizbot run`, the end-to-end tests, the sandbox and the benchmark all start:
the same handlers, store and content, pointed at Telegram or at the local emulator. Each of them
composes it (`build_services(*service_inputs(options))`, then `QuizBot(options, services)`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import html
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

import orjson
from aiohttp.web import AppRunner
from prometheus_client.metrics_core import Metric
from telegram import Update
from telegram.constants import ParseMode
from telegram.error import Forbidden
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    ContextTypes,
    Defaults,
)

from bot.compose import Services, ServiceSettings
from bot.content import default_content_dir
from bot.content.reload import ReloadResult, reload_catalog
from bot.control import ControlServer
from bot.core.clock import Clock
from bot.core.live_feedback import LivePolicy
from bot.core.models import Catalog, Quiz
from bot.i18n import load_all, translator
from bot.observability import gauges, metrics
from bot.observability.exposition import serve_metrics
from bot.store import Database
from bot.store.content_ids import convert_old_answers
from bot.store.courtesy_log import CourtesyStore
from bot.store.forget import ForgetStore
from bot.store.handled_updates import UpdateLog, handling_update
from bot.store.interface import Engine
from bot.tg.buttons import ButtonRouter
from bot.tg.context import CONTEXT_TYPES, BotContext, LearnerResolver
from bot.tg.forget_handlers import ForgetHandlers
from bot.tg.group_answer_handlers import GroupAnswerHandlers
from bot.tg.group_handlers import GroupHandlers
from bot.tg.group_run_handlers import GroupRunner
from bot.tg.handler_order import Handlers, register_handlers
from bot.tg.member_replies import CourtesyReplies
from bot.tg.menus import publish_menus
from bot.tg.mini_app import DashboardLinks, status_in
from bot.tg.number_handlers import TypedReplies
from bot.tg.owner import OwnerHandlers
from bot.tg.practice_handlers import PracticeHandlers
from bot.tg.private_handlers import PrivateHandlers
from bot.tg.progress_handlers import ProgressHandlers
from bot.tg.reminder_handlers import ReminderHandlers
from bot.tg.report_handlers import ReportHandlers
from bot.tg.rounds_handlers import RoundHandlers
from bot.tg.share_handlers import ShareHandlers
from bot.tg.standings_handlers import StandingsHandlers
from bot.tg.topics import reply_thread
from bot.tg.upload_handlers import UploadHandlers
from bot.tg.wire.photos import PhotoSender
from bot.tg.wire.ratelimit import PacedRateLimiter
from bot.tg.wire.read_updates import ReadUpdates
from bot.tg.wire.retry import RetryingLimiter
from bot.tg.wire.shared_pace import SharedBudget
from bot.tg.wire.tapped_message import UpdatesRequest, without_tapped_formatting
from bot.tg.wire.timer_backends import JobTimers, Timers
from bot.tg.wire.transport import use_transport
from bot.tg.wire.update_order import PerChatUpdateProcessor
from bot.tg.wire.webhook_server import WebhookServer
from bot.tg.wrong_chat_handlers import WrongChat
from bot.usecases.catalog_ref import CatalogRef
from bot.usecases.forgetting import Forgetting
from bot.usecases.group_admins import ADMIN_STATUSES, AdminCache
from bot.usecases.group_courtesy import GroupCourtesy

log = logging.getLogger(__name__)
SEEN_UPDATES = 10_000  # update ids remembered to drop repeats; Telegram re-sends recent ones
# Every update type, chat_member included: Telegram leaves chat_member out unless asked, and
# it is how an administrator bot learns departures in groups that hide service messages.
ALLOWED_UPDATES = list(Update.ALL_TYPES)
STOP_GRACE = 10.0  # seconds the group steps in flight get to finish on stop
UPLOAD_SYNC_SECONDS = 5.0  # several workers: another worker's upload is served here this soon


@dataclass
class BotOptions:
    token: str
    db_path: Path
    catalog: Catalog
    base_url: str = "https://api.telegram.org/bot"
    base_file_url: str | None = None  # None: base_url's host at /file/bot (Telegram's layout)
    default_language: str = "en"
    admin_chat_id: int | None = None
    clock: Clock = time.time
    rng: random.Random | None = None
    rate_limit: bool = True
    send_rate: float = (
        29.0  # counted requests (sends, edits) per second; see bot/tg/wire/ratelimit.py
    )
    # Measured (BENCHMARKS.md): httpcore scans its whole pool per request, so 8 beats 64.
    concurrent_updates: int = 8
    transport: str = "aiohttp"  # or "httpx", PTB's default (bot/tg/wire/transport.py)
    group_seconds: int = 30  # default seconds per question for a newly joined group
    group_timezone: str = "UTC"  # default time zone of a newly joined group
    question_seconds: float | None = None  # overrides every group's setting (tests: fractions)
    live: LivePolicy = field(
        default_factory=LivePolicy
    )  # how often an open group question shows its live count
    timezone: str = "UTC"  # learners' days (streaks, review due dates); reminders by default
    retention: float = 0.9  # FSRS's desired retention (QUIZBOT_RETENTION)
    dashboard: DashboardLinks | None = None  # the Mini App, when it has a public URL
    # Reloading content while running (`/reload`, `quizbot content reload`): where it lives,
    # who may ask in chat, and the control socket the command line talks to (None: none).
    content_dir: Path | None = None
    guide_base_url: str | None = None
    owner_ids: frozenset[int] = frozenset()
    control_socket: Path | None = None
    # Several workers (bot/cli/worker.py): the store they share (PostgreSQL), durable
    # timers, and no in-memory caches of what another worker may change.
    database: Engine | None = None  # None: the SQLite file at db_path
    timers: Callable[[], Timers] | None = None  # None: PTB's JobQueue
    shared: bool = False
    send_share: int = 1  # workers sharing the bot's limits: each paces at its 1/N share
    # Workers on any number of hosts: the bot's overall rhythm is one schedule in the database
    # (bot/tg/wire/shared_pace.py); `send_share` is then only the fallback while it is unreachable.
    shared_budget: SharedBudget | None = None
    run_watchdog: float = 20.0  # durable timers: seconds before another worker resumes a run
    chat_slots: Callable[[int | str], Awaitable[float]] | None = None  # shared per-chat slots
    chat_spare: Callable[[int | str], Awaitable[bool]] | None = None  # ... for courtesy replies


_heap_frozen = False


def _freeze_startup_heap() -> None:
    """Keep what start-up built out of the cyclic collector's full passes, once per process.

    Modules, PTB, pydantic and the catalogue make a heap of ~70,000 tracked objects that live
    as long as the process; every full (generation 2) collection walked all of it: a 45–120 ms
    stop of the event loop every ~10 s under load, the whole tail of tap → popup (BENCHMARKS.md).
    `gc.freeze()` moves them to the permanent generation: collections still run, over what was
    allocated since. Once per process (tests start many bots), so no later bot's garbage is kept.
    """
    global _heap_frozen
    if not _heap_frozen:
        _heap_frozen = True
        gc.freeze()


def file_url_for(base_url: str) -> str:
    """Where files download from when not set: Telegram (and a local Bot API server) serve them
    beside the methods, `<host>/file/bot<token>/<path>` next to `<host>/bot<token>/<method>`."""
    return base_url.removesuffix("/").removesuffix("/bot") + "/file/bot"


def update_key(update: Update) -> int:
    """The update's id and what it carries, hashed to 64 bits: a re-delivery repeats both, an id
    reused for another update (a restarted emulator; Telegram's random ids after a week without
    updates) does not."""
    parts = [str(update.update_id)]
    if (query := update.callback_query) is not None:
        parts.append(f"q{query.id}")
        if query.message is not None:
            parts.append(f"{query.message.chat.id}:{query.message.message_id}")
            parts.append(str(query.message.date.timestamp()))
    elif (message := update.effective_message) is not None:
        parts.append(f"m{message.chat_id}:{message.message_id}:{message.date.timestamp()}")
    elif (member := update.my_chat_member or update.chat_member) is not None:
        parts.append(f"c{member.chat.id}:{member.date.timestamp()}")
    digest = hashlib.blake2b("|".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


# What an update carries, the commonest first: a tap costs one attribute read.
_UPDATE_KINDS = (
    "callback_query", "message", "edited_message", "chat_member", "my_chat_member",
    "inline_query", "chosen_inline_result", "poll_answer", "poll", "channel_post",
    "edited_channel_post", "chat_join_request", "message_reaction", "message_reaction_count",
    "chat_boost", "removed_chat_boost", "pre_checkout_query", "shipping_query",
    "business_connection", "business_message", "edited_business_message",
    "deleted_business_messages", "purchased_paid_media",
)  # fmt: skip


def update_kind(update: Update) -> str:
    """The update's kind as Telegram names its field ("other" for one PTB knows no name for)."""
    for kind in _UPDATE_KINDS:
        if getattr(update, kind, None) is not None:
            return kind
    return "other"


class ServiceInputs(NamedTuple):
    """What `bot.compose.build_services` takes, read from the bot's options."""

    settings: ServiceSettings
    engine: Engine
    catalog: CatalogRef


def service_inputs(options: BotOptions) -> ServiceInputs:
    """The options as the composition root takes them: plain settings, the store engine (the
    SQLite file at `db_path` unless a `database` is given, not opened yet) and the catalogue's
    holder. Only an entry point calls `build_services(*service_inputs(options))` and hands the
    result to `QuizBot` (tests/test_layers.py names which)."""
    return ServiceInputs(
        ServiceSettings(
            content_dir=options.content_dir or default_content_dir(),
            default_language=options.default_language,
            timezone=options.timezone,
            group_seconds=options.group_seconds,
            group_timezone=options.group_timezone,
            question_seconds=options.question_seconds,
            retention=options.retention,
            shared=options.shared,
            clock=options.clock,
            rng=options.rng,
        ),
        options.database if options.database is not None else Database(options.db_path),
        CatalogRef(options.catalog),
    )


class QuizBot:
    """One running bot: database, services and the PTB application around them.

    It is given its services built (bot/compose.py, called by the entry point that composes
    the bot: bot/cli, the sandbox, the benchmark's bot process, the tests' harness), and builds
    only the Telegram side around them."""

    def __init__(self, options: BotOptions, services: Services) -> None:
        self.options = options
        self.services = services
        # The served catalogue: every holder reads it here, a reload swaps it once (_serve).
        self.catalog_ref = services.catalog_ref
        self.db: Engine = services.engine
        # The names the handlers, the command line and the tests reach the use cases by.
        self.learners, self.quiz, self.selections = (
            services.learners,
            services.quiz,
            services.selections,
        )
        self.standings, self.group_settings = services.standings, services.group_settings
        self.group_runs, self.group_schedules = services.group_runs, services.group_schedules
        self.group_answers = services.group_answers
        self.uploads, self.review, self.review_rounds = (
            services.uploads,
            services.review,
            services.review_rounds,
        )
        self.learner_stats, self.practice = services.learner_stats, services.practice
        self.reminders, self.reporting = services.reminders, services.reporting
        # Inline mode's search and the quiz a startgroup link names (listed quizzes only).
        self.sharing = services.sharing
        self._seen_updates: OrderedDict[int, None] = OrderedDict()
        self._reload_lock = asyncio.Lock()
        self.control: ControlServer | None = None
        self._upload_sync: asyncio.Task[None] | None = None
        self.webhook: WebhookServer | None = None
        self._metrics: AppRunner | None = None  # the /metrics port, when asked for
        self.read_updates = ReadUpdates()  # a worker's front's readings, for its own consumer
        # Content pictures: uploaded once, then sent by the file_id stored (migration 014).
        self.photos = PhotoSender(self.db, options.clock)
        self.app = self._build()

    def _build(self) -> Application:  # type: ignore[type-arg]
        builder = (
            ApplicationBuilder()
            .token(self.options.token)
            .base_url(self.options.base_url)
            .base_file_url(self.options.base_file_url or file_url_for(self.options.base_url))
            .defaults(Defaults(parse_mode=ParseMode.HTML))
            # Up to N updates at once, but one chat's strictly in arrival order (update_order.py).
            .concurrent_updates(PerChatUpdateProcessor(self.options.concurrent_updates))
            .context_types(CONTEXT_TYPES)
        )
        # One connection per concurrent update, or they queue on the pool.
        builder = use_transport(
            builder,
            self.options.transport,
            connection_pool_size=self.options.concurrent_updates,
            pool_timeout=10,
        )
        if self.options.transport == "aiohttp":  # updates without what no handler reads
            builder = builder.get_updates_request(UpdatesRequest(1))
        app: Application  # type: ignore[type-arg]
        if self.options.rate_limit:
            # Telegram's flood limits paced at the wire (0 × 429 in the fan-out benchmark); a 429
            # is still retried after retry_after, so no question or reveal is dropped.
            share = max(1, self.options.send_share)
            if self.options.shared_budget is not None:
                share = 1  # the shared schedule spaces all workers' sends together
            limiter = PacedRateLimiter(
                overall_rate=self.options.send_rate / share,
                overall_limit=max(1, 30 // share),
                chat_slots=self.options.chat_slots,
                chat_spare=self.options.chat_spare,
                shared=self.options.shared_budget,
            )
            app = builder.rate_limiter(limiter).build()
        else:  # no pacing, but the same retries (bot/tg/wire/retry.py): the one retry layer
            app = builder.rate_limiter(RetryingLimiter()).build()
        self._make_handlers(app)
        handlers = Handlers(
            drop_repeated=self.drop_repeated,
            resolver=LearnerResolver(self.learners),
            buttons=self.buttons,
            forget=self.forget_handlers,
            private=self.private_handlers,
            stop=self.stop_command,
            wrong_chat=self.wrong_chat,
            owner=self.owner_handlers,
            courtesy=self.courtesy,
            upload=self.upload_handlers,
            group=self.group_handlers,
            group_answers=self.group_answer_handlers,
            share=self.share_handlers,
            standings=self.standings_handlers,
            progress=self.progress_handlers,
            rounds=self.round_handlers,
            reminders=self.reminder_handlers,
            practice=self.practice_handlers,
            typed_replies=self.typed_replies,
        )
        register_handlers(app, handlers)  # every handler, in the order PTB tries them
        app.add_error_handler(self._on_error)
        return app

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
        self.wrong_chat = WrongChat(lambda *args, **kwargs: self.courtesy.say(*args, **kwargs))
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
        self.timers: Timers = self.options.timers() if self.options.timers else JobTimers(app)
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
        # The bot added by a startgroup link (`/start@bot <quiz id>`) and inline mode.
        self.share_handlers = ShareHandlers(
            self.sharing, self.group_settings, self.runner, self.courtesy.say
        )
        # /top and /me in groups, members leaving or joining.
        self.standings_handlers = StandingsHandlers(
            self.standings, self.group_settings, self.courtesy.say
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

    async def start(self, *, polling: bool = True, poll_timeout: float = 10) -> None:
        """Open the store, connect to the Bot API and start receiving updates."""
        load_all()  # a missing or broken catalogue stops start-up, not a reply
        await self.db.open()
        try:
            await self._load_handled_updates()
            # Answers from before migration 006 get their ids from the catalogue served now.
            await convert_old_answers(self.db, self.catalog_ref.current)
            await self.app.initialize()
            await publish_menus(self.app.bot)
            if self.options.dashboard is not None:
                lang = translator(self.options.default_language)
                await self.options.dashboard.set_menu_button(self.app.bot, lang)
            await self.app.start()
            # Group runs and schedules live in the store; JobQueue keeps jobs in memory only.
            self._serve_uploaded(*await self.uploads.load())  # before runs resume on them
            if self.options.shared:
                self._upload_sync = asyncio.create_task(self._sync_uploads(), name="upload-sync")
            await self.runner.restore()
            await self.runner.reschedule()
            await self.progress_handlers.restore()  # the review inbox, in the background
            await self.reminder_handlers.restore()  # daily review reminders
            await self.practice_handlers.restore()  # clocks of exams still running
            if self.options.control_socket is not None:
                self.control = ControlServer(
                    self.options.control_socket, {"reload": self._reload_command}
                )
                await self.control.start()
            _freeze_startup_heap()
            if polling and self.app.updater is not None:
                await self.app.updater.start_polling(
                    poll_interval=0,
                    timeout=int(poll_timeout),
                    drop_pending_updates=False,
                    allowed_updates=ALLOWED_UPDATES,
                )
        except BaseException:
            await self.db.close()
            raise

    async def metrics_probe(self) -> list[Metric]:
        """The gauges of the moment in one process: updates held and timers past due (several
        workers read theirs from PostgreSQL instead: bot/cli/worker.py)."""
        processor = self.app.update_processor
        held = processor.pending if isinstance(processor, PerChatUpdateProcessor) else 0
        overdue = 0
        jobs = self.app.job_queue
        if jobs is not None and jobs.scheduler.running:
            now = datetime.now(UTC)
            overdue = sum(
                1
                for job in jobs.scheduler.get_jobs()
                if job.next_run_time is not None and job.next_run_time <= now
            )
        return [*gauges.inbox(self.app.update_queue.qsize() + held), gauges.timers_overdue(overdue)]

    async def start_metrics(self, listen: str, port: int) -> int:
        """Serve `/metrics` and `/healthz` on listen:port (QUIZBOT_METRICS_PORT) until `stop`;
        the port bound (0: one the kernel chose)."""
        self._metrics, bound = await serve_metrics(listen, port, self.metrics_probe)
        return bound

    async def register_webhook(self, url: str, secret: str) -> None:
        """setWebhook for a front that is not PTB's (several workers): every update type, as
        `start_webhook` and polling ask (chat_member is left out unless asked for)."""
        await self.app.bot.set_webhook(url, secret_token=secret, allowed_updates=ALLOWED_UPDATES)

    async def start_webhook(self, url: str, secret: str, listen: str, port: int) -> None:
        """Serve `/telegram` on listen:port (tg/wire/webhook_server.py, not PTB's tornado server:
        the secret is checked before a body is read), then tell Telegram the public URL."""
        await self.start(polling=False)
        self.webhook = WebhookServer(self.app, secret)
        try:
            await self.webhook.start(listen, port)
            await self.register_webhook(url, secret)
        except BaseException:
            await self.stop()
            raise

    async def process_payload(self, payload: str) -> None:
        """Handle one update's JSON as the inbox stored it (a worker's consumer): the webhook
        front has already checked it, so PTB reads it as Telegram sent it; when this process's
        own front stored it, what the front read is used (bot/tg/wire/read_updates.py)."""
        read = self.read_updates.take(payload)  # this process's front read it already
        if read is None:
            update = without_tapped_formatting(orjson.loads(payload))  # tg/wire/tapped_message.py
            read = Update.de_json(update, self.app.bot)
        await self.app.process_update(read)

    async def stop(self, grace: float | None = None) -> None:
        """Stop taking updates, let the work in flight finish (bounded), then close the store.

        Order matters: no job may fire or still run once the store is closed. The scheduler is
        paused first (a due timer waits for the next start, which resumes its run from the
        store); group steps in flight get `grace` seconds (`GroupRunner.drain`); PTB's
        `stop` then handles the updates already fetched and waits for running jobs."""
        try:
            if self._upload_sync is not None:
                self._upload_sync.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._upload_sync
                self._upload_sync = None
            if self.control is not None:
                await self.control.stop()
            if self._metrics is not None:
                await self._metrics.cleanup()
                self._metrics = None
            if self.webhook is not None:
                await self.webhook.stop()
            if self.app.updater is not None and self.app.updater.running:
                await self.app.updater.stop()
            if self.app.running:
                jobs = self.app.job_queue
                if jobs is not None and jobs.scheduler.running:
                    jobs.scheduler.pause()
                # STOP_GRACE read now, not bound as a default when the module loaded.
                await self.runner.drain(STOP_GRACE if grace is None else grace)
                await self.app.stop()
            await self.app.shutdown()
        finally:
            await self.db.close()

    async def reload_content(self) -> ReloadResult:
        """Load and check the content again; serve it only if it has no error.

        Attempts and group runs already under way keep the quiz version they started with (the
        new catalogue remembers the old versions); new ones start on the new content.
        """
        async with self._reload_lock:
            path = self.options.content_dir or default_content_dir()
            result = await asyncio.to_thread(
                reload_catalog,
                path,
                self.catalog_ref.current,
                guide_base_url=self.options.guide_base_url,
            )
            if result.ok:
                self._serve(result.catalog)
                log.info("content reloaded from %s: %s", path, result.summary())
            else:
                log.warning("content reload refused:\n%s", result.summary())
            return result

    async def _sync_uploads(self) -> None:
        """Several workers: a group's quiz uploaded or deleted through another worker is served
        (or no longer) here within UPLOAD_SYNC_SECONDS (docs/caches.md)."""
        while True:
            await asyncio.sleep(UPLOAD_SYNC_SECONDS)
            try:
                if served := await self.uploads.sync():
                    self._serve_uploaded(*served)
            except Exception as exc:  # the store briefly unreachable: the next round retries
                log.warning("uploaded quizzes not synced from the store: %s", exc)

    def _serve_uploaded(self, *quizzes: Quiz) -> None:
        """A group's uploaded quizzes join the served catalogue by id and version (never listed;
        earlier versions stay for the runs still playing them)."""
        self._serve(self.catalog_ref.current.with_versions(quizzes))

    def _serve(self, catalog: Catalog) -> None:
        """Serve a new catalogue: one swap, seen by every holder from its next read on
        (`options.catalog` follows, for whoever reads the bot's options)."""
        self.catalog_ref.current = self.options.catalog = catalog

    async def _reload_command(self) -> tuple[bool, str]:
        result = await self.reload_content()
        return result.ok, result.summary()

    async def drop_repeated(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Stop an update already seen. No await before the check: concurrent copies of one
        update cannot both pass. Keys whose writes were committed before a restart are loaded at
        start-up (`_load_handled_updates`), so a re-delivered deep link does not act twice."""
        metrics.update_received()  # if no earlier seam stamped it (bot/tg/wire/update_order.py)
        key = update_key(update)
        if key in self._seen_updates:
            log.info("update %d delivered again: ignored", update.update_id)
            metrics.UPDATES_REPEATED.inc()
            raise ApplicationHandlerStop
        metrics.count_update(update_kind(update))
        self._seen_updates[key] = None
        if len(self._seen_updates) > SEEN_UPDATES:
            self._seen_updates.popitem(last=False)
        handling_update(key)  # its writes record it: durable across a restart

    async def _load_handled_updates(self) -> None:
        """The ids handled before a restart (no DB read per update: the check stays in memory)."""
        log_ = UpdateLog(self.db)
        await log_.prune(SEEN_UPDATES)
        for update_id in await log_.recent(SEEN_UPDATES):
            self._seen_updates[update_id] = None

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log first, then tell the user in their language; never show them a traceback."""
        if isinstance(context.error, Forbidden):
            # The user blocked the bot (or left the chat): nobody to tell, nothing to fix.
            log.info("chat unreachable: %s", context.error)
            return
        log.error("error while handling an update", exc_info=context.error)
        if not isinstance(update, Update):
            return
        user = update.effective_user
        lang = await self._safe_language(user.id, user.language_code) if user else "en"
        tr = translator(lang)
        text = tr._("Sorry, something went wrong on my side. Please try again.")
        try:
            if update.callback_query is not None:
                try:
                    await update.callback_query.answer(text[:200], show_alert=True)
                    text = ""
                except Exception:  # already answered, or too old: say it in the chat instead
                    log.info("could not answer the callback query about an error")
            if text and update.effective_chat is not None:
                chat_id = update.effective_chat.id  # in a forum, in the update's topic
                thread = reply_thread(chat_id) or None
                await context.bot.send_message(chat_id, text, message_thread_id=thread)
        except Exception:  # the error path must not raise in turn
            log.warning("could not tell the user about an error", exc_info=True)
        if self.options.admin_chat_id is not None:
            error = context.error
            detail = str(error).replace(self.options.token, "<token>")  # never in a chat
            note = f"⚠️ {html.escape(type(error).__name__)}: {html.escape(detail)[:500]}"
            try:
                await context.bot.send_message(self.options.admin_chat_id, note)
            except Exception:
                log.warning("could not notify the admin chat", exc_info=True)

    async def _safe_language(self, user_id: int, code: str | None) -> str:
        try:
            return await self.learners.language(user_id, code)
        except Exception:
            return self.options.default_language
