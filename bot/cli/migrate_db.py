"""`quizbot migrate-db --from sqlite:///… --to postgresql://…`: move a deployment to PostgreSQL."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.store.db import StoreError
from bot.store.location import parse_location
from bot.store.pg.copy import CopyError, copy_sqlite_to_postgres
from bot.store.pg.database import PgStoreError


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="quizbot migrate-db",
        description="Copy a stopped bot's SQLite database into an empty PostgreSQL database.",
    )
    parser.add_argument("--from", dest="source", required=True, help="sqlite:///path or a path")
    parser.add_argument("--to", dest="target", required=True, help="postgresql://user@host/db")
    args = parser.parse_args(argv)
    try:
        source, target = parse_location(args.source), parse_location(args.target)
    except ValueError as exc:
        print(f"quizbot migrate-db: {exc}", file=sys.stderr)
        return 2
    if source.path is None or target.dsn is None:
        print("quizbot migrate-db: --from takes SQLite, --to takes PostgreSQL", file=sys.stderr)
        return 2
    try:
        counts = asyncio.run(copy_sqlite_to_postgres(source.path, target.dsn, print))
    except (CopyError, StoreError, PgStoreError) as exc:
        print(f"quizbot migrate-db: nothing copied: {exc}", file=sys.stderr)
        return 1
    print(f"copied {sum(counts.values())} rows of {len(counts)} tables from {source} to {target}")
    return 0
