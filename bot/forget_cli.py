"""`quizbot forget USER_ID [--db PATH]`: what `/forget` does, for an operator (a learner who
asks by mail, a user who blocked the bot).

It opens the database like the bot does (WAL: it may run next to a live bot, whose caches then
drop the user at its next restart; their data in the file is gone at once). What is deleted and
what is kept is said in `bot/store/forget.py` and the README.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.config import ConfigError, Settings
from bot.store import Database, StoreError
from bot.store.forget import ForgetStore, Forgotten


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbot forget", description=__doc__)
    parser.add_argument("user_id", type=int, help="the learner's Telegram user id")
    parser.add_argument("--db", type=Path, help="SQLite file (env QUIZBOT_DB)")
    return parser


async def forget(db_path: Path, user_id: int) -> Forgotten:
    db = Database(db_path)
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
        db_path = args.db or Settings.from_env().db_path
    except ConfigError as exc:
        print(f"quizbot forget: {exc}", file=sys.stderr)
        return 2
    if not db_path.is_file():
        print(f"quizbot forget: no database at {db_path}", file=sys.stderr)
        return 1
    try:
        done = asyncio.run(forget(db_path, args.user_id))
    except StoreError as exc:
        print(f"quizbot forget: {exc}", file=sys.stderr)
        return 1
    print(
        f"quizbot forget: user {args.user_id}: profile {'deleted' if done.profile else 'absent'}, "
        f"{done.private_attempts} private attempts and {done.private_answers} answers deleted, "
        f"{done.review_items} review items and {done.reminders} reminders deleted, "
        f"{done.group_answers_kept} group answers kept without name or id"
    )
    return 0
