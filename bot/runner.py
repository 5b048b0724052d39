"""Start the real bot from settings: load and check content, open the store, poll or serve a
webhook.

Every start-up failure (broken content, unusable database, bad settings) ends here with a clear
message and a non-zero exit, never with a half-running bot.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path

from bot.config import ConfigError, Settings, check_webhook
from bot.content import ContentError, default_content_dir, load_catalog
from bot.i18n import CatalogueError, load_all
from bot.store import StoreError

log = logging.getLogger(__name__)


async def run_bot(
    settings: Settings,
    *,
    api_base_url: str | None = None,
    webhook_url: str | None = None,
    db_path: Path | None = None,
    content_dir: Path | None = None,
) -> int:
    from bot.tg.app import BotOptions, QuizBot

    webhook = webhook_url or settings.webhook_url
    if webhook:
        try:
            check_webhook(webhook, settings.webhook_secret)
        except ConfigError as exc:
            print(f"quizbot: configuration error: {exc}", file=sys.stderr)
            return 2
    content = content_dir or settings.content_dir or default_content_dir()
    try:
        # The checks' clean result is cached beside the database: a restart with unchanged
        # content and code skips the text-quality checks (files are still parsed and validated).
        catalog = load_catalog(content, cache_dir=(db_path or settings.db_path).parent)
        load_all()
    except (ContentError, CatalogueError) as exc:
        print(f"quizbot: cannot start: {exc}", file=sys.stderr)
        return 1
    bot = QuizBot(
        BotOptions(
            token=settings.token.reveal(),
            db_path=db_path or settings.db_path,
            catalog=catalog,
            base_url=api_base_url or settings.api_base_url,
            default_language=settings.default_language,
            admin_chat_id=settings.admin_chat_id,
            group_seconds=settings.question_seconds,
            group_timezone=settings.timezone,
            timezone=settings.timezone,
            transport=settings.transport,
        )
    )
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
    except StoreError as exc:
        print(f"quizbot: cannot start: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # e.g. an invalid token: Telegram answers 401 on getMe
        print(f"quizbot: cannot start: {type(exc).__name__}: {exc}", file=sys.stderr)
        await bot.db.close()
        return 1
    log.info("quizbot is running (%s)", "webhook" if webhook else "long polling")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("stopping")
    await bot.stop()
    return 0
