"""The `quizbot` command line: run the bot, check content, the offline sandbox, the benchmark."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import os
import sys
from pathlib import Path

from bot import logs, setting_names
from bot.config import ConfigError, Settings, check_webhook

log = logging.getLogger("bot")

NO_TOKEN = """\
quizbot needs a Telegram bot token to run for real.

  1. In Telegram, talk to @BotFather and send /newbot; it gives you a token.
  2. Put it in the environment:  export BOT_TOKEN=123456:ABC...   (or in .env for docker compose)
  3. Run:                        quizbot run

(From a clone, install first: python3 -m pip install -e .)

No token at hand? Try the whole bot offline, in this terminal, with no network:

  quizbot sandbox            (add --fresh to start over)
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbot", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run the bot against Telegram (long polling or webhook)")
    run.add_argument("--api-base-url", help="Bot API server (env QUIZBOT_API_BASE_URL)")
    run.add_argument("--webhook-url", help="public HTTPS URL; enables webhook mode")
    run.add_argument("--db", type=Path, help="SQLite file (env QUIZBOT_DB)")
    run.add_argument("--content", type=Path, help="content folder (env QUIZBOT_CONTENT_DIR)")
    run.add_argument(
        "--workers",
        type=int,
        default=0,
        help="N worker processes sharing one port (webhook mode, QUIZBOT_DB=postgresql://...)",
    )
    run.add_argument("--grace", type=float, default=10.0, help="seconds to finish work on stop")
    content = sub.add_parser("content", help="check quiz content, write its JSON Schema")
    content.add_argument("rest", nargs=argparse.REMAINDER)
    sandbox = sub.add_parser("sandbox", help="chat with the real bot offline, in this terminal")
    sandbox.add_argument("rest", nargs=argparse.REMAINDER)
    bench = sub.add_parser("bench", help="measure the bot against a bare PTB bot, offline")
    bench.add_argument("rest", nargs=argparse.REMAINDER)
    export = sub.add_parser("export", help="write answers as CSV")
    export.add_argument("rest", nargs=argparse.REMAINDER)
    migrate = sub.add_parser("migrate-db", help="copy a SQLite database into PostgreSQL")
    migrate.add_argument("rest", nargs=argparse.REMAINDER)
    forget = sub.add_parser("forget", help="delete what the bot keeps about a user")
    forget.add_argument("rest", nargs=argparse.REMAINDER)
    web = sub.add_parser("web", help="serve the Mini App dashboard on its own")
    web.add_argument("rest", nargs=argparse.REMAINDER)
    review = sub.add_parser("review", help="fit FSRS's parameters to the logged reviews")
    review.add_argument("rest", nargs=argparse.REMAINDER)
    return parser


# Sub-commands with their own argument parsers: handed their arguments untouched.
DELEGATED = {
    "content": "bot.cli.content",
    "sandbox": "bot.sandbox",
    "bench": "bot.bench",
    "export": "bot.cli.export",
    "migrate-db": "bot.cli.migrate_db",
    "forget": "bot.cli.forget",
    "web": "bot.cli.web",
    "review": "bot.cli.review",
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in DELEGATED:
            module = importlib.import_module(DELEGATED[argv[0]])
            return int(module.main(argv[1:]))
        args = _parser().parse_args(argv)
        settings = Settings.from_env()
        if args.command is None and not settings.token:
            print(NO_TOKEN)
            return 0
        return _run(settings, args)
    except ConfigError as exc:
        print(f"quizbot: configuration error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """`quizbot content export ... | head`: the reader stopped early, which is normal shell use.

    Python's documented recipe (the `signal` module's notes on SIGPIPE): point stdout at devnull
    so the flush at exit does not raise again, and end as a command killed by SIGPIPE would.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + 13  # 141, what a shell reports for SIGPIPE


def _run(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.run import run_bot

    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    logs.setup(settings.log_level, settings.token.reveal())
    for line in setting_names.unknown(os.environ):  # a misspelt setting, said once
        log.warning("%s", line)
    workers = getattr(args, "workers", 0)
    if workers:
        return _run_workers(settings, args, workers)
    return asyncio.run(
        run_bot(
            settings,
            api_base_url=getattr(args, "api_base_url", None),
            webhook_url=getattr(args, "webhook_url", None),
            db_path=getattr(args, "db", None),
            content_dir=getattr(args, "content", None),
        )
    )


def _run_workers(settings: Settings, args: argparse.Namespace, count: int) -> int:
    """`run --workers N`: N processes on PostgreSQL behind one port (bot/workers/supervisor.py)."""
    from bot.observability.exposition import workers_share_metrics
    from bot.workers.supervisor import supervise, worker_command

    webhook = args.webhook_url or settings.webhook_url
    if settings.db_url is None:
        print("quizbot: --workers needs QUIZBOT_DB=postgresql://...", file=sys.stderr)
        return 2
    extra = ["--grace", str(args.grace)]
    if webhook:
        try:
            check_webhook(webhook, settings.webhook_secret)
        except ConfigError as exc:
            print(f"quizbot: configuration error: {exc}", file=sys.stderr)
            return 2
        extra += ["--webhook-url", webhook]
    else:  # no public address: one worker at a time long-polls (bot/workers/poller.py)
        extra += ["--poll"]
    if args.api_base_url:
        extra += ["--api-base-url", args.api_base_url]
    with workers_share_metrics():  # /metrics on any worker adds up all of them
        return supervise(
            count,
            lambda i: worker_command(
                i, count, extra + (["--set-webhook"] if i == 0 and webhook else [])
            ),
            grace=args.grace,
        )


if __name__ == "__main__":
    sys.exit(main())
