"""`quizbot content reload`: ask the running bot, through its control socket, to reload content.

The bot checks the new content first and answers with what changed, or with every error (file,
line, key) while it keeps serving the old content; this command prints that answer.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.config import ConfigError, Settings
from bot.control import send, socket_path


def run_reload(socket: Path | None, db: Path | None) -> int:
    """Exit status 0 when the bot reloaded, 1 when it refused or could not be reached."""
    if socket is None:
        try:
            socket = socket_path(db or Settings.from_env().db_path)
        except ConfigError as exc:
            print(f"quizbot content reload: {exc}", file=sys.stderr)
            return 1
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
