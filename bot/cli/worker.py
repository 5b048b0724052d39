"""One worker of `quizbot run --workers N` (started by bot/workers/supervisor.py).

A whole bot on PostgreSQL: the webhook front on the shared port (or, with `--poll`, whichever
worker holds the poller's lock: bot/workers/poller.py) stores updates, the worker loop
claims free updates and timers and hands them to PTB (`Application.process_update`, and the
timers' handlers). What one process kept in memory is in PostgreSQL here: the updates, the
timers of runs, schedules and reminders, the duplicate guard (the inbox's primary key), and the
bot's sending schedule (one for every worker on every host: bot/tg/wire/shared_pace.py).

Stopping (SIGTERM): the front says not ready and stops taking updates, the loop finishes or
hands back what it holds (`--grace`), then the bot and the store close.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import signal
import socket
import sys
import time
from typing import Any

import asyncpg
from prometheus_client.metrics_core import Metric

from bot import logs
from bot.cli import deployment
from bot.compose import build_services
from bot.config import ConfigError, Settings
from bot.content import ContentError
from bot.i18n import CatalogueError
from bot.observability import gauges, metrics
from bot.observability.exposition import multiprocess_dir, serve_metrics
from bot.store.pg.content_generation import ContentGeneration
from bot.store.pg.database import PgDatabase, PgStoreError
from bot.store.pg.inbox import UpdateQueue
from bot.store.pg.pacing import BotSchedule, SendSlots
from bot.store.pg.poll_lock import PollLock
from bot.store.pg.timers import TimerQueue
from bot.store.pg.work_stats import work_state
from bot.tg.app import QuizBot
from bot.tg.options import service_inputs
from bot.tg.wire.shared_pace import SharedBudget
from bot.tg.wire.timer_backends import PgTimers
from bot.tg.wire.webhook_server import read_update
from bot.webhook_gate import serve
from bot.workers.consumer import Consumer
from bot.workers.front import Front
from bot.workers.poller import Poller
from bot.workers.supervisor import CANNOT_START

log = logging.getLogger(__name__)
# The bot's counted requests per second, all workers together: under Telegram's ~30 by a margin
# for releases on different hosts reaching Telegram closer together than they left.
SHARED_RATE = 25.0


def _args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="quizbot worker")
    p.add_argument("--index", type=int, default=0)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--grace", type=float, default=10.0)
    p.add_argument("--lease", type=float, default=10.0)
    p.add_argument(
        "--watchdog",
        type=float,
        default=20.0,
        help="seconds after a group run's step began before another worker resumes the run",
    )
    p.add_argument("--api-base-url")
    p.add_argument("--webhook-url")
    p.add_argument("--set-webhook", action="store_true", help="register the webhook (one worker)")
    p.add_argument(
        "--poll",
        action="store_true",
        help="long polling: one worker at a time asks Telegram for updates (no webhook)",
    )
    return p.parse_args(argv)


async def run_worker(settings: Settings, args: argparse.Namespace) -> int:
    if settings.db_url is None:
        print("quizbot: --workers needs QUIZBOT_DB=postgresql://...", file=sys.stderr)
        return 2
    if not args.poll and not settings.webhook_secret.reveal():
        # `quizbot run --workers N` checks this first; a worker started by hand may not have.
        print("quizbot: webhook mode needs QUIZBOT_WEBHOOK_SECRET (or --poll)", file=sys.stderr)
        return 2
    content = deployment.content_dir(settings)
    try:
        catalog = deployment.load_content(settings, content)
    except (ContentError, CatalogueError) as exc:
        print(f"quizbot: cannot start: {exc}", file=sys.stderr)
        return CANNOT_START
    name = f"{socket.gethostname()}:{os.getpid()}:{args.index}"
    clock = time.time
    # listen: caches hear every worker's changes of learners' and groups' rows (issue 32);
    # keep_warm: its connections stay open
    db = PgDatabase(settings.db_url, listen=True, keep_warm=True)
    try:
        await db.open()  # before the bot: its timers use the pool
    except PgStoreError as exc:
        print(f"quizbot: cannot start: {exc}", file=sys.stderr)
        return CANNOT_START
    slots = SendSlots(db.pool)
    schedule = BotSchedule(db.pool)

    async def chat_slots(chat: int | str) -> float:
        """Telegram's per-chat limits across workers: a private chat 1/s with a burst of 3, a
        group 20 a minute (evenly, 3.2 s apart: a burst would let 40 through in a minute). The
        private pace keeps a margin (1.25 s, bursts of 2): a slot is booked when a send leaves
        one worker, and another worker's send may reach Telegram sooner than its slot says."""
        try:
            if isinstance(chat, int) and chat > 0:
                return await slots.reserve(f"c{chat}", 1.25, 2)
            return await slots.reserve(f"c{chat}", 3.2, 1)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("shared send slot unavailable (%s): sending on local pacing only", exc)
            return 0.0

    async def chat_spare(chat: int | str) -> bool:
        """A courtesy reply in a group (tg/wire/ratelimit.py): its shared slot only if free now."""
        try:
            return await slots.spare(f"c{chat}", 3.2)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("shared send slot unavailable (%s): courtesy reply not sent", exc)
            return False

    options = dataclasses.replace(
        deployment.deployment_options(
            settings,
            catalog,
            content,
            db_path=settings.db_path,  # unused: `database` is the store
            base_url=args.api_base_url,
        ),
        # Owners may /reload: the worker that receives it reloads, and every other worker
        # follows the content generation it moves. No control socket (`quizbot content
        # reload` moves the generation itself) and no dashboard (served by a single process).
        owner_ids=settings.owner_ids,
        content_versions=ContentGeneration(db.pool),
        database=db,  # an Engine (bot/store/interface.py), as SQLite's Database is
        # The bot's overall rate, one schedule for every worker on every host; the
        # host's own share (1/N) only while the database cannot be reached.
        shared_budget=SharedBudget(
            schedule.lease, schedule.pause, rate=SHARED_RATE, fallback_share=args.count
        ),
        send_share=max(1, args.count),
        chat_slots=chat_slots,  # a chat's sends, booked across all workers
        chat_spare=chat_spare,  # ... a courtesy reply's, only if its slot is free now
        timers=lambda dues: PgTimers(TimerQueue(db.pool, name, args.lease), clock),
        shared=True,
        run_watchdog=args.watchdog,
        clock=clock,
    )
    bot = QuizBot(options, build_services(*service_inputs(options)))  # composed here
    try:
        await bot.start(polling=False)
    except Exception as exc:  # e.g. an invalid token: Telegram answers 401 on getMe
        failure = deployment.start_failure(exc, settings.token.reveal())
        print(f"quizbot: cannot start: {failure}", file=sys.stderr)
        await db.close()
        return CANNOT_START
    timers = bot.timers
    assert isinstance(timers, PgTimers)

    async def handle(payload: str) -> Any:
        metrics.update_received()  # claimed from the inbox: its handling starts now
        return await bot.process_payload(payload)

    consumer = Consumer(
        db.pool,
        name,
        handle,
        timers.fire,
        clock=clock,
        slots=bot.options.concurrent_updates,
        lease=args.lease,
    )

    async def probe() -> list[Metric]:
        """/metrics' gauges: the inbox, timers and leases of every worker, from PostgreSQL."""
        state = await work_state(db.pool, clock())
        return [
            *gauges.inbox(state.waiting, state.oldest_age),
            gauges.timers_overdue(state.timers_overdue),
            *gauges.leases(state.leases, state.workers),
        ]

    if multiprocess_dir() is None:
        log.warning("PROMETHEUS_MULTIPROC_DIR not set: /metrics counts this worker only")
    secret = settings.webhook_secret.reveal()
    queue = UpdateQueue(db.pool, name, local=consumer)
    front = Front(
        queue, secret, running=lambda: consumer.running,
        check=lambda update: read_update(update, bot.app.bot), probe=probe,
        keep=bot.read_updates.keep,  # read once: the consumer here takes it back
        replies=bot.replies,  # a tap's popup in the webhook's response (bot/webhook_replies.py)
    )  # fmt: skip
    # Long polling: health, readiness and metrics stay on the same address and port.
    listen, port = settings.webhook_listen, settings.webhook_port
    try:
        runner = await serve(front.app(webhook=not args.poll), listen, port, reuse_port=True)
    except OSError as exc:  # the port is taken (by another program), or not this host's address
        print(
            f"quizbot: cannot start: cannot serve on {listen}:{port} (QUIZBOT_WEBHOOK_LISTEN, "
            f"QUIZBOT_WEBHOOK_PORT): {exc.strerror or exc}",
            file=sys.stderr,
        )
        await bot.stop()
        return CANNOT_START
    poller = None
    if args.poll:
        poller = Poller(
            PollLock(settings.db_url, name), queue, bot.fetch_updates, put=front.put,
            prepare=bot.app.bot.delete_webhook,
        )  # fmt: skip
    scraped = None  # QUIZBOT_METRICS_PORT: every worker on it too (any one answers for all)
    if settings.metrics_port is not None:
        try:
            scraped, _ = await serve_metrics(
                settings.metrics_listen, settings.metrics_port, probe, reuse_port=True
            )
        except OSError as exc:
            print(f"quizbot: cannot serve /metrics: {exc.strerror or exc}", file=sys.stderr)
            await runner.cleanup()
            await bot.stop()
            return CANNOT_START
    await consumer.start()
    if poller is not None:
        poller.start()
    webhook = args.webhook_url or settings.webhook_url
    if args.set_webhook and webhook:
        await bot.register_webhook(webhook, secret)
    log.info("worker %s running", name)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    loop.add_signal_handler(signal.SIGUSR1, _dump_tasks)  # what is every task waiting for?
    await stop.wait()
    log.info("worker %s stopping", name)
    consumer.running = False  # readiness fails first: a load balancer stops sending here
    if poller is not None:
        await poller.stop()  # what it fetched and did not store, Telegram sends again
    await runner.cleanup()
    if scraped is not None:
        await scraped.cleanup()
    await consumer.stop(args.grace)
    await bot.stop(args.grace)  # a group step cut short is resumed by its durable timer
    return 0


def _dump_tasks() -> None:
    for task in asyncio.all_tasks():
        task.print_stack(limit=6, file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = _args(sys.argv[1:] if argv is None else argv)
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"quizbot: configuration error: {exc}", file=sys.stderr)
        return 2
    logs.setup(settings.log_level, settings.token.reveal())
    return asyncio.run(run_worker(settings, args))


if __name__ == "__main__":
    sys.exit(main())
