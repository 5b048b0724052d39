"""Start the real bot from settings: load and check content, open the store, poll or serve a
webhook.

Every start-up failure (broken content, unusable database, bad settings) ends here with a clear
message and a non-zero exit, never with a half-running bot.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import ConfigError, Settings, check_webhook
from bot.content import ContentError, default_content_dir, load_catalog
from bot.control import socket_path
from bot.i18n import CatalogueError, load_all
from bot.store import StoreError
from bot.store.pg.database import PgDatabase, PgStoreError
from bot.web.auth import DEFAULT_MAX_AGE
from bot.web.web_settings import WebSettings

if TYPE_CHECKING:
    from aiohttp.web import AppRunner

    from bot.tg.app import QuizBot

log = logging.getLogger(__name__)


async def run_bot(
    settings: Settings,
    *,
    api_base_url: str | None = None,
    webhook_url: str | None = None,
    db_path: Path | None = None,
    content_dir: Path | None = None,
) -> int:
    from bot.cli import deployment
    from bot.compose import build_services
    from bot.tg.app import QuizBot
    from bot.tg.mini_app import DashboardLinks
    from bot.tg.options import service_inputs

    web = WebSettings.from_env()

    webhook = webhook_url or settings.webhook_url
    if webhook:
        try:
            check_webhook(webhook, settings.webhook_secret)
        except ConfigError as exc:
            print(f"quizbot: configuration error: {exc}", file=sys.stderr)
            return 2
    content = deployment.content_dir(settings, content_dir)
    db_file = db_path or settings.db_path
    try:
        # The checks' clean result is cached beside the database: a restart with unchanged
        # content and code skips the text-quality checks (files are still parsed and validated).
        catalog = deployment.load_content(settings, content, cache_dir=db_file.parent)
    except (ContentError, CatalogueError) as exc:
        print(f"quizbot: cannot start: {exc}", file=sys.stderr)
        return 1
    options = dataclasses.replace(
        deployment.deployment_options(
            settings, catalog, content, db_path=db_file, base_url=api_base_url
        ),
        # One process only: the dashboard it serves itself, owners who may /reload its
        # content, and the control socket `quizbot content reload` talks to.
        dashboard=DashboardLinks(web.url, web.short_name) if web.url else None,
        owner_ids=settings.owner_ids,
        control_socket=socket_path(db_file),
        # QUIZBOT_DB=postgresql://...: one process on PostgreSQL (several: --workers N). It
        # listens, as workers do, so its caches hear what other processes change (`quizbot
        # forget` deletes a learner: their kept choices go at once, not at the next restart).
        database=PgDatabase(settings.db_url, keep_warm=True, listen=True)
        if settings.db_url
        else None,
    )
    bot = QuizBot(options, build_services(*service_inputs(options)))  # composed here
    try:
        if webhook:
            await bot.start_webhook(
                webhook,
                settings.webhook_secret.reveal(),
                settings.webhook_listen,
                settings.webhook_port,
            )
        else:
            await bot.start()
    except (StoreError, PgStoreError) as exc:
        print(f"quizbot: cannot start: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # e.g. an invalid token: Telegram answers 401 on getMe
        failure = deployment.start_failure(exc, settings.token.reveal())
        print(f"quizbot: cannot start: {failure}", file=sys.stderr)
        await bot.db.close()
        return 1
    if settings.metrics_port is not None:
        try:
            await bot.start_metrics(settings.metrics_listen, settings.metrics_port)
        except OSError as exc:  # the port is taken, or the address is not this host's
            print(f"quizbot: cannot serve /metrics: {exc}", file=sys.stderr)
            await bot.stop()
            return 1
        log.info("metrics on %s:%d/metrics", settings.metrics_listen, settings.metrics_port)
    dashboard = None
    if web.url:
        try:
            dashboard, port = await start_dashboard(
                bot, settings.token.reveal(), web.listen, web.port, max_age=web.max_age
            )
        except OSError as exc:  # the port is taken, or the address is not this host's
            print(f"quizbot: cannot start the dashboard: {exc}", file=sys.stderr)
            await bot.stop()
            return 1
        log.info("dashboard on %s:%d, public at %s", web.listen, port, web.url)
    log.info("quizbot is running (%s)", "webhook" if webhook else "long polling")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("stopping")
    if dashboard is not None:
        await dashboard.cleanup()
    await bot.stop()
    return 0


async def start_dashboard(
    bot: QuizBot, token: str, host: str, port: int, *, max_age: float = DEFAULT_MAX_AGE
) -> tuple[AppRunner, int]:
    """The Mini App dashboard beside a running bot (`quizbot run`, the sandbox): the bot's
    database, catalogue, cached admin check and review sync (fresh misses show at once)."""
    from bot.usecases.dashboard import DashboardService
    from bot.web.routes import WebOptions
    from bot.web.server import start

    options = bot.options

    async def is_admin(chat_id: int, user_id: int) -> bool:
        return await bot.admins.is_admin(chat_id, user_id)

    service = DashboardService(
        bot.catalog_ref, bot.db, timezone=options.timezone, clock=options.clock,
        sync=bot.review.sync, owners=options.owner_ids,
    )  # fmt: skip
    web_options = WebOptions(
        token=token, service=service, is_admin=is_admin,
        default_language=options.default_language, max_age=max_age, clock=options.clock,
    )  # fmt: skip
    return await start(web_options, host, port)


async def run_dashboard(
    settings: Settings,
    web: WebSettings,
    db_path: Path | None,
    content_dir: Path | None,
    listen: str,
    port: int,
) -> int:
    """`quizbot web`: the dashboard on its own, reading the bot's database (never writing to
    it), asking the Bot API who administers a group. Start-up failures: one line, exit 1."""
    from bot.cli.deployment import start_failure
    from bot.cli.export import with_uploads
    from bot.store import Database
    from bot.tg.mini_app import member_status
    from bot.usecases.dashboard import DashboardService
    from bot.usecases.group_admins import AdminCache
    from bot.web.routes import WebOptions
    from bot.web.server import start

    path = db_path or settings.db_path
    content = content_dir or settings.content_dir or default_content_dir()
    try:
        catalog = load_catalog(content)
        load_all()
    except (ContentError, CatalogueError) as exc:
        print(f"quizbot web: cannot start: {exc}", file=sys.stderr)
        return 1
    if not path.exists():
        print(f"quizbot web: cannot start: no database at {path}", file=sys.stderr)
        return 1
    db = Database(path)
    try:
        await db.open()
        # The groups' own quizzes as the bot serves them at start-up (not the deleted ones):
        # their schedules, hardest questions, item analysis and review queues.
        catalog = with_uploads(catalog, path, content, deleted=False)
    except StoreError as exc:
        await db.close()
        print(f"quizbot web: cannot start: {exc}", file=sys.stderr)
        return 1
    token = settings.token.reveal()
    try:
        async with member_status(token, settings.api_base_url) as fetch:
            options = WebOptions(
                token=token,
                service=DashboardService(
                    catalog, db, timezone=settings.timezone, owners=settings.owner_ids
                ),
                is_admin=AdminCache(fetch, time.time).is_admin,
                default_language=settings.default_language, max_age=web.max_age,
            )  # fmt: skip
            runner, bound = await start(options, listen, port)
            log.info("dashboard listening on %s:%d", listen, bound)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
            await stop.wait()
            await runner.cleanup()
    except Exception as exc:  # e.g. an invalid token (401 on getMe), a port already taken
        print(f"quizbot web: cannot start: {start_failure(exc, token)}", file=sys.stderr)
        return 1
    finally:
        await db.close()
    return 0
