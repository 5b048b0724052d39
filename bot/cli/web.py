"""`quizbot web`: the dashboard on its own, reading the bot's database (it never writes to it).

Needs the bot's token (initData is signed with it; admin checks ask the Bot API). `quizbot run`
serves the same dashboard by itself when QUIZBOT_WEBAPP_URL is set; this is for running it as a
separate process, e.g. behind its own reverse proxy.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from bot import logs, setting_names
from bot.config import ConfigError, Settings
from bot.web.web_settings import WebSettings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbot web", description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, help="SQLite file (env QUIZBOT_DB)")
    parser.add_argument("--content", type=Path, help="content folder (env QUIZBOT_CONTENT_DIR)")
    parser.add_argument("--listen", help="address to listen on (env QUIZBOT_WEB_LISTEN)")
    parser.add_argument("--port", type=_port, help="port (env QUIZBOT_WEB_PORT, default 8080)")
    return parser


def _port(text: str) -> int:
    """1-65535, as QUIZBOT_WEB_PORT: argparse then says so in one line (status 2), where a
    port out of range passed and failed later in bind() with a traceback."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be 1-65535, got {text}")
    return port


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        settings, web_settings = Settings.from_env(), WebSettings.from_env()
    except ConfigError as exc:
        print(f"quizbot web: configuration error: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        print("quizbot web needs the bot's token in BOT_TOKEN (initData is signed with it).",
              file=sys.stderr)  # fmt: skip
        return 2
    logs.setup(settings.log_level, settings.token.reveal())
    for line in setting_names.unknown(os.environ):  # a misspelt setting, said once
        logging.getLogger("bot").warning("%s", line)
    try:
        from bot.cli.run import run_dashboard

        listen, port = args.listen or web_settings.listen, args.port or web_settings.port
        return asyncio.run(
            run_dashboard(settings, web_settings, args.db, args.content, listen, port)
        )
    except KeyboardInterrupt:
        return 130
