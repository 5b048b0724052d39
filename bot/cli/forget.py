"""`quizbot forget USER_ID [--db PATH|URL]`: what `/forget` does, for an operator (a learner who
asks by mail, a user who blocked the bot).

It opens the database like the bot does, SQLite or PostgreSQL (`--db` or `QUIZBOT_DB`, spelt
the same way): it may run next to a live bot. Their data in the database is gone at once; a
bot running on that SQLite file is then told through its control socket (bot/control.py) to
drop what it keeps of them in memory, and a bot on PostgreSQL (one process or several
workers) hears the deletion through LISTEN/NOTIFY.
What is deleted and what is kept is said in `bot/store/forget.py` and the README.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.config import ConfigError, store_location
from bot.control import send, socket_path
from bot.store import Database, StoreError
from bot.store.forget import ForgetStore, Forgotten
from bot.store.interface import Engine
from bot.store.location import Location
from bot.store.pg.database import PgDatabase


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbot forget", description=__doc__)
    parser.add_argument("user_id", type=int, help="the learner's Telegram user id")
    parser.add_argument(
        "--db", help="SQLite file or postgresql://… URL (env QUIZBOT_DB)", metavar="PATH|URL"
    )
    return parser


async def forget(location: Location, user_id: int) -> Forgotten:
    db: Engine = PgDatabase(location.dsn) if location.dsn else Database(_path(location))
    await db.open()
    try:
        return await ForgetStore(db).forget(user_id)
    finally:
        await db.close()


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.user_id <= 0:
        print("quizbot forget: a Telegram user id is a positive number", file=sys.stderr)
        return 2
    try:
        location = store_location(args.db)
    except ConfigError as exc:
        print(f"quizbot forget: {exc}", file=sys.stderr)
        return 2
    if location.dsn is None and not _path(location).is_file():
        print(f"quizbot forget: no database at {location}", file=sys.stderr)
        return 1
    try:
        done = asyncio.run(forget(location, args.user_id))
    except StoreError as exc:
        print(f"quizbot forget: {exc}", file=sys.stderr)
        return 1
    if location.dsn is None:
        print(asyncio.run(_tell_the_bot(socket_path(_path(location)), args.user_id)))
    print(
        f"quizbot forget: user {args.user_id}: profile {'deleted' if done.profile else 'absent'}, "
        f"{done.private_attempts} private attempts and {done.private_answers} answers deleted, "
        f"{done.review_items} review items and {done.reminders} reminders deleted, "
        f"{done.group_answers_kept} group answers kept without name or id"
    )
    return 0


def _path(location: Location) -> Path:
    assert location.path is not None  # a Location is a path or a URL
    return location.path


async def _tell_the_bot(socket: Path, user_id: int) -> str:
    """The running bot's answer, or why none was needed."""
    if not socket.exists():
        return "quizbot forget: no bot running on this database (nothing kept in memory)"
    try:
        ok, text = await send(socket, f"forget {user_id}", timeout=30)
    except (OSError, TimeoutError) as exc:
        return f"quizbot forget: the running bot did not answer ({exc}); it forgets at restart"
    return f"quizbot forget: running bot: {text}" if ok else f"quizbot forget: {text}"
