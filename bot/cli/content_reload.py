"""`quizbot content reload`: make the running bot reload its content.

One process (SQLite, or PostgreSQL without workers) is asked through its control socket: it
checks the new content first and answers with what changed, or with every error (file, line,
key) while it keeps serving the old content; this command prints that answer.

Workers on PostgreSQL (`quizbot run --workers N`, on any number of hosts) have no control socket:
with QUIZBOT_DB (or --db) naming their database and no one process answering on a socket, this
command checks the content here first, then moves the content generation every worker follows
(bot/store/pg/content_generation.py). Each worker reloads its own files within a few seconds.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import asyncpg

from bot.cli import deployment
from bot.config import ConfigError, Settings, store_location
from bot.content.loader import check
from bot.content.report import format_report
from bot.control import send, socket_path
from bot.store.pg.content_generation import ContentGeneration
from bot.store.pg.pacing import live_workers
from bot.tg.served_content import UPLOAD_SYNC_SECONDS


def run_reload(socket: Path | None, db: str | None) -> int:
    """Exit status 0 when the bot reloaded (or the workers were told to), 1 when it refused
    or could not be reached."""
    try:
        location = store_location(db)
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"quizbot content reload: {exc}", file=sys.stderr)
        return 1
    if socket is None and location.dsn is not None:
        one_process = socket_path(settings.db_path)  # one process on PostgreSQL has its socket
        if not one_process.exists():
            return _tell_workers(location.dsn, settings)
        socket = one_process
    if socket is None:
        assert location.path is not None
        socket = socket_path(location.path)
    try:
        ok, text = asyncio.run(send(socket, "reload"))
    except (OSError, TimeoutError) as exc:
        print(
            f"quizbot content reload: no running bot answers on {socket} ({exc}); "
            "start it with `quizbot run`, or pass --db with its database",
            file=sys.stderr,
        )
        return 1
    print(text)
    return 0 if ok else 1


def _tell_workers(dsn: str, settings: Settings) -> int:
    """Check the content here, then move the generation the workers follow."""
    content = deployment.content_dir(settings)
    report = check(content)
    if report.errors:
        print(format_report(report), file=sys.stderr)
        print(
            f"quizbot content reload: {content} has errors: the workers were not told to reload",
            file=sys.stderr,
        )
        return 1
    try:
        workers, generation = asyncio.run(_advance(dsn))
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        print(f"quizbot content reload: cannot reach the workers' database: {exc}", file=sys.stderr)
        return 1
    if generation is None:
        print(
            f"quizbot content reload: no worker runs on this database, and no one process "
            f"answers on {socket_path(settings.db_path)}; start the bot with `quizbot run`, "
            "or pass --socket with its control socket",
            file=sys.stderr,
        )
        return 1
    print(
        f"Content checked in {content}: no errors. Content generation {generation}: each of the "
        f"{workers} running workers reloads its own content folder within "
        f"{UPLOAD_SYNC_SECONDS:g} s (a worker whose files have errors keeps its content and "
        "logs why)."
    )
    return 0


async def _advance(dsn: str) -> tuple[int, int | None]:
    """(live workers, the new generation); no generation moved when no worker runs."""
    conn = await asyncpg.connect(dsn)
    try:
        workers = await live_workers(conn)
        return workers, (await ContentGeneration(conn).advance() if workers else None)
    finally:
        await conn.close()
