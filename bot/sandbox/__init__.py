"""`quizbot sandbox`: chat with the real bot offline, in this terminal.

The emulator (with Telegram's flood limits) and the real QuizBot run in this one process on
127.0.0.1, with their own SQLite file under ./data/sandbox so a second run remembers progress.
Input is read line by line from stdin, a terminal or a pipe alike, which is how the tests drive it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path

from bot.sandbox import terminal
from bot.sandbox.commands import HELP, Quit, handle
from bot.sandbox.session import SandboxOptions, Session

DEFAULT_DATA = Path("data/sandbox")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbot sandbox", description=__doc__.split("\n")[0])
    parser.add_argument("--fresh", action="store_true", help="forget earlier progress first")
    parser.add_argument(
        "--data", type=Path, default=DEFAULT_DATA, help=f"SQLite folder (default {DEFAULT_DATA})"
    )
    parser.add_argument("--lang", default="en",
                        help="your Telegram language code (default en; try fr or wo)")  # fmt: skip
    parser.add_argument("--no-flood-limits", action="store_true",
                        help="for scripts that type faster than a person: no 429s")  # fmt: skip
    parser.add_argument("--question-seconds", type=float, default=None,
                        help="seconds per question in group runs (default: the bot's)")  # fmt: skip
    return parser


def main(argv: list[str]) -> int:
    # `quizbot sandbox -- --fresh` reaches us with the "--" that got the options past the
    # top-level parser; past here it would make every option a positional argument.
    args = _parser().parse_args(argv[1:] if argv[:1] == ["--"] else argv)
    # PTB warns about RetryAfter as int otherwise; the flood limits here make 429s real.
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    # httpx honours HTTP(S)_PROXY: a corporate proxy must not see (or break) the local emulator.
    for name in ("NO_PROXY", "no_proxy"):
        os.environ[name] = ",".join(filter(None, [os.environ.get(name), "127.0.0.1"]))
    logging.basicConfig(
        level=logging.WARNING, format="quizbot sandbox: %(levelname)s %(name)s: %(message)s"
    )
    db_dir: Path = args.data
    db_path = db_dir / "quizbot.sqlite3"
    if args.fresh:
        for suffix in ("", "-wal", "-shm"):
            db_path.with_name(db_path.name + suffix).unlink(missing_ok=True)
    db_dir.mkdir(parents=True, exist_ok=True)
    options = SandboxOptions(
        db_path, language=args.lang, question_seconds=args.question_seconds,
        flood=not args.no_flood_limits,
    )  # fmt: skip
    try:
        return asyncio.run(_run(options))
    except KeyboardInterrupt:
        return 0


async def _run(options: SandboxOptions) -> int:
    tty = sys.stdout.isatty()
    session = Session(options, sys.stdout, tty=tty, echo=not sys.stdin.isatty())
    try:
        await session.start()
    except Exception as exc:  # broken content, an unusable SQLite file: say so, no traceback
        print(f"quizbot sandbox: cannot start: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    say = session.display.emit
    say(terminal.note(f"quizbot sandbox: the real bot, offline (data: {options.db_path})"))
    say(terminal.note(f"dashboard (Mini App) as You: {session.dashboard_url()}"))
    say(HELP)
    try:
        session.display.show_prompt(_prompt(session))
        async for line in _lines():
            if line is None:  # end of input
                session.display.input_received("", echo=False)
                break
            session.display.input_received(line, echo=session.echo)
            try:
                await handle(session, line)
            except Quit:
                break
            except Exception as exc:  # a slip of the sandbox must not end the person's chat
                logging.getLogger(__name__).debug("line failed", exc_info=True)
                say(terminal.note(f"could not do that: {exc}"))
            session.display.show_prompt(_prompt(session))
    finally:
        session.display.prompt_showing = False
        await session.stop()
    say(terminal.note("bye"))
    return 0


def _prompt(session: Session) -> str:
    return f"{session.where()} › "


async def _lines() -> AsyncIterator[str | None]:
    """Lines of stdin without blocking the event loop: a daemon thread reads, the loop awaits."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        try:
            for raw in sys.stdin:
                loop.call_soon_threadsafe(queue.put_nowait, raw.rstrip("\r\n"))
            loop.call_soon_threadsafe(queue.put_nowait, None)
        except RuntimeError:  # the loop closed first: the session already ended
            pass

    threading.Thread(target=read, name="sandbox-stdin", daemon=True).start()
    while True:
        line = await queue.get()
        yield line
        if line is None:
            return
