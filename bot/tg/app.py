"""Wiring: build the PTB Application around the bot's handlers, open and close resources.

`QuizBot` is what `quizbot run`, the end-to-end tests, the sandbox and the benchmark all start:
the same handlers, store and content, pointed at Telegram or at the local emulator. Each of them
composes it (`build_services(*service_inputs(options))`, then `QuizBot(options, services)`;
bot/tg/options.py). Its parts, one job each: handler_set.py builds every handler object
(handler_order.py registers them in the order PTB tries them), served_content.py reloads and
syncs the content, repeated_updates.py drops an update seen before, error_handlers.py replies
to an error; this module builds the application and runs it: start, webhook, metrics, stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import warnings
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

import orjson
from aiohttp.web import AppRunner
from prometheus_client.metrics_core import Metric
from telegram import Update
from telegram.constants import ParseMode
from telegram.error import InvalidToken
from telegram.ext import Application, ApplicationBuilder, Defaults
from telegram.warnings import PTBUserWarning

from bot.compose import Services
from bot.config import TokenRefused
from bot.control import ControlServer
from bot.core.bursts import Bursts
from bot.i18n import load_all, translator
from bot.observability import gauges
from bot.observability.exposition import serve_metrics
from bot.store.content_ids import convert_old_answers
from bot.store.interface import Engine
from bot.tg.channel_handlers import ChannelHandlers
from bot.tg.context import CONTEXT_TYPES, LearnerResolver
from bot.tg.error_handlers import ErrorHandlers
from bot.tg.flood_handlers import PrivateFloods
from bot.tg.handler_order import ALLOWED_UPDATES, Handlers, register_handlers
from bot.tg.handler_set import HandlerSet
from bot.tg.menus import publish_menus
from bot.tg.options import BotOptions, file_url_for
from bot.tg.repeated_updates import RepeatedUpdates
from bot.tg.served_content import ServedContent
from bot.tg.wire.photos import PhotoSender
from bot.tg.wire.polling import HttpxUpdatesRequest, polling_failed
from bot.tg.wire.ratelimit import PacedRateLimiter
from bot.tg.wire.read_updates import ReadUpdates
from bot.tg.wire.retry import RetryingLimiter
from bot.tg.wire.tapped_message import UpdatesRequest, without_tapped_formatting
from bot.tg.wire.transport import use_transport
from bot.tg.wire.update_order import PerChatUpdateProcessor
from bot.tg.wire.webhook_server import WebhookServer
from bot.webhook_replies import WebhookReplies

WEBHOOK_CONNECTIONS = 100  # setWebhook's max_connections: Telegram's most (its default is 40)

# `fetch_updates` asks for getUpdates raw on purpose (the workers' inbox stores each update's
# JSON, which `Bot.get_updates` would have parsed into objects only to be written back out):
# PTB's warning that a named method exists is expected there, so it is silenced, that one only.
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.getUpdates'", category=PTBUserWarning)
STOP_GRACE = 10.0  # seconds the group steps in flight get to finish on stop

_heap_frozen = False
# Net allocations of tracked objects between two young collections (CPython's default: 700).
YOUNG_GC_THRESHOLD = 10_000


def _freeze_startup_heap() -> None:
    """Keep what start-up built out of the cyclic collector's full passes, once per process.

    Modules, PTB, pydantic and the catalogue make a heap of ~70,000 tracked objects that live
    as long as the process; every full (generation 2) collection walked all of it: a 45–120 ms
    stop of the event loop every ~10 s under load, the whole tail of tap → popup (BENCHMARKS.md).
    `gc.freeze()` moves them to the permanent generation: collections still run, over what was
    allocated since. Once per process (tests start many bots), so no later bot's garbage is kept.

    The young generation's threshold goes from 700 to YOUNG_GC_THRESHOLD: at 700, the tasks,
    coroutines and dicts of the updates in flight (alive when a collection starts, freed a
    moment later) set off ~100 young collections a second in a closed loop, 9 % of the
    process's CPU (wave twelve in BENCHMARKS.md); at 10,000 about one every few seconds, of
    a few ms. Cyclic garbage (an exception's traceback) waits a little longer to be freed.
    """
    global _heap_frozen
    if not _heap_frozen:
        _heap_frozen = True
        gc.freeze()
        gc.set_threshold(YOUNG_GC_THRESHOLD, *gc.get_threshold()[1:])


class QuizBot(HandlerSet, ServedContent, RepeatedUpdates, ErrorHandlers):
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
        # Popups that ride on the webhook's response (either front): bot/webhook_replies.py.
        self.replies = WebhookReplies(options.webhook_reply_wait)
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
            .concurrent_updates(
                PerChatUpdateProcessor(
                    self.options.concurrent_updates, finished=self.replies.finished
                )
            )
            .context_types(CONTEXT_TYPES)
        )
        # One connection per concurrent update, or they queue on the pool.
        builder = use_transport(
            builder,
            self.options.transport,
            connection_pool_size=self.options.concurrent_updates,
            pool_timeout=10,
            replies=self.replies,
        )
        if self.options.transport == "aiohttp":  # updates without what no handler reads
            builder = builder.get_updates_request(UpdatesRequest(1))
        else:  # PTB's transport: an update PTB cannot read skipped all the same
            builder = builder.get_updates_request(HttpxUpdatesRequest())
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
            floods=(
                PrivateFloods(self.learners, Bursts(self.options.sender_burst))
                if self.options.sender_burst is not None
                else None
            ),
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
            channels=ChannelHandlers(self.learners),
            group_answers=self.group_answer_handlers,
            topics=self.topic_handlers,
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

    async def start(self, *, polling: bool = True, poll_timeout: float = 10) -> None:
        """Open the store, connect to the Bot API and start receiving updates."""
        load_all()  # a missing or broken catalogue stops start-up, not a reply
        await self.db.open()
        try:
            await self._load_handled_updates()
            # Answers from before migration 006 get their ids from the catalogue served now.
            await convert_old_answers(self.db, self.catalog_ref.current)
            try:
                await self.app.initialize()
            except InvalidToken:  # its text quotes the token
                raise TokenRefused from None
            await publish_menus(self.app.bot)
            if self.options.dashboard is not None:
                lang = translator(self.options.default_language)
                await self.options.dashboard.set_menu_button(self.app.bot, lang)
            await self.app.start()
            # Group runs and schedules live in the store; JobQueue keeps jobs in memory only.
            self._serve_uploaded(*await self.uploads.load())  # before runs resume on them
            if self.options.shared:
                await self._follow_content()  # notes the generation of the content loaded at start
                self._upload_sync = asyncio.create_task(self._sync_uploads(), name="upload-sync")
            await self.runner.restore()
            await self.runner.reschedule()
            await self.progress_handlers.restore()  # the review inbox, in the background
            await self.reminder_handlers.restore()  # daily review reminders
            await self.practice_handlers.restore()  # clocks of exams still running
            if self.options.control_socket is not None:
                self.control = ControlServer(
                    self.options.control_socket,
                    {"reload": self._reload_command, "forget": self._forget_command},
                )
                await self.control.start()
            _freeze_startup_heap()
            if polling and self.app.updater is not None:
                await self.app.updater.start_polling(
                    poll_interval=0,
                    timeout=int(poll_timeout),
                    drop_pending_updates=False,
                    allowed_updates=ALLOWED_UPDATES,
                    error_callback=polling_failed,  # one line, not PTB's traceback
                )
        except BaseException:
            await self._abandon_start()
            raise

    async def _abandon_start(self) -> None:
        """Close what a failed start opened, so the entry point's one line is all it prints:
        the Bot API's HTTP sessions too (a getMe refused leaves them open, and asyncio then
        logs "Unclosed client session" errors at exit)."""
        try:
            with contextlib.suppress(Exception):  # the start's own error is the one to report
                if self.app.updater is not None and self.app.updater.running:
                    await self.app.updater.stop()
                if self.app.running:
                    await self.app.stop()
                await self.app.shutdown()
                await self.app.bot.shutdown()  # initialize() failed in getMe: its requests
        finally:
            await self.db.close()

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

    async def fetch_updates(self, offset: int, timeout: int) -> list[dict[str, Any]]:
        """getUpdates, decoded and not read by PTB (the workers' poller stores each update's
        JSON: bot/workers/poller.py), on getUpdates' own request object, as PTB's updater."""
        result = await self.app.bot.do_api_request(  # the JSON as sent, not PTB's objects
            "getUpdates",
            api_kwargs={"offset": offset, "timeout": timeout, "allowed_updates": ALLOWED_UPDATES},
            read_timeout=timeout + 10,
        )
        return [u for u in result if isinstance(u, dict)] if isinstance(result, list) else []

    async def register_webhook(self, url: str, secret: str) -> None:
        """setWebhook for a front that is not PTB's (several workers): every update type, as
        `start_webhook` and polling ask (chat_member is left out unless asked for), over as
        many connections as Telegram allows: a tap's request stays open until its popup rides
        on the answer (bot/webhook_replies.py), so Telegram's default 40 would cap the taps
        delivered at about 40 per popup latency, whatever the workers could take."""
        await self.app.bot.set_webhook(
            url,
            secret_token=secret,
            allowed_updates=ALLOWED_UPDATES,
            max_connections=WEBHOOK_CONNECTIONS,
        )

    async def start_webhook(self, url: str, secret: str, listen: str, port: int) -> None:
        """Serve `/telegram` on listen:port (tg/wire/webhook_server.py, not PTB's tornado server:
        the secret is checked before a body is read), then tell Telegram the public URL."""
        await self.start(polling=False)
        try:
            await self.serve_webhook(secret, listen, port)
            await self.register_webhook(url, secret)
        except BaseException:
            await self.stop()
            raise

    async def serve_webhook(self, secret: str, listen: str, port: int) -> None:
        """Serve `/telegram` on listen:port, Telegram told nothing (the benchmark's bridge plays
        Telegram's delivery: bot/bench/webhook.py); after `start(polling=False)`."""
        self.webhook = WebhookServer(self.app, secret, self.replies)
        await self.webhook.start(listen, port)

    async def _forget_command(self, argument: str) -> tuple[bool, str]:
        """`quizbot forget USER_ID` deleted a user beside this process: what it keeps in memory
        of them goes too (their language, attempts, reminders), as after their own /forget."""
        if not argument.isdigit() or not 0 < int(argument) < 2**63:
            return False, "forget: a Telegram user id is a positive number"
        await self.forget_handlers.forgetting.drop_in_memory(int(argument))
        return True, f"user {argument}: nothing of them kept in memory"

    async def process_payload(self, payload: str) -> None:
        """Handle one update's JSON as the inbox stored it (a worker's consumer): the webhook
        front has already checked it, so PTB reads it as Telegram sent it; when this process's
        own front stored it, what the front read is used (bot/tg/wire/read_updates.py)."""
        read = self.read_updates.take(payload)  # this process's front read it already
        if read is None:
            update = without_tapped_formatting(orjson.loads(payload))  # tg/wire/tapped_message.py
            read = Update.de_json(update, self.app.bot)
        try:
            await self.app.process_update(read)
        finally:
            self.replies.finished(read)  # handled without a popup: the front answers now

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
