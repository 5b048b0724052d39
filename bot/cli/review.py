"""`quizbot review optimize [--db PATH|URL]`: fit FSRS's parameters to this deployment's reviews.

Every rating the scheduler applied is logged (`review_ratings`: a miss is Again, a review answer
Again..Easy with its time). Once enough are logged, fsrs's optimiser fits the 21 parameters of
its memory model to them, and the bot schedules with those from its next start (SpacedReview
reads them once per process). The optimiser needs PyTorch, a large download most deployments do
not want: it is the optional extra `quizbot[optimizer]`, and without it this command says how
to install it and changes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from fsrs import Rating, ReviewLog, Scheduler

from bot.config import ConfigError, store_location
from bot.store import Database, StoreError
from bot.store.interface import Engine
from bot.store.location import Location
from bot.store.pg.database import PgDatabase
from bot.store.reviews import Rated, ReviewStore

# Fewer ratings fit noise rather than this deployment's learners; the optimiser's own batches
# hold 512 reviews.
MIN_REVIEWS = 400
INSTALL_HINT = (
    "the optimiser needs PyTorch: install it with  python -m pip install 'quizbot[optimizer]'  "
    "(from a clone: python -m pip install -e '.[optimizer]'), then run this again"
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbot review", description=__doc__)
    sub = parser.add_subparsers(dest="action", required=True)
    optimize = sub.add_parser("optimize", help="fit FSRS's parameters to the logged reviews")
    optimize.add_argument(
        "--db", help="SQLite file or postgresql://… URL (env QUIZBOT_DB)", metavar="PATH|URL"
    )
    optimize.add_argument(
        "--min-reviews",
        type=int,
        default=MIN_REVIEWS,
        help=f"ratings needed before fitting (default {MIN_REVIEWS})",
    )
    return parser


def review_logs(rated: Sequence[Rated]) -> list[ReviewLog]:
    """The log as fsrs's ReviewLogs: one card id per learner and question."""
    cards: dict[tuple[int, str, str], int] = {}
    logs = []
    for r in rated:
        card = cards.setdefault((r.user_id, r.quiz_id, r.question_id), len(cards) + 1)
        when = datetime.fromtimestamp(r.reviewed_at, UTC)
        logs.append(ReviewLog(card, Rating(r.rating), when, r.elapsed_ms))
    return logs


def fit(rated: Sequence[Rated]) -> list[float]:
    """fsrs's optimiser over the log (needs torch); parameters it accepts as a Scheduler's."""
    from fsrs.optimizer import Optimizer

    parameters = [float(p) for p in Optimizer(review_logs(rated)).compute_optimal_parameters()]
    Scheduler(parameters=parameters)  # within FSRS's bounds, or ValueError
    return parameters


async def optimize(location: Location, min_reviews: int) -> tuple[int, str]:
    db: Engine = PgDatabase(location.dsn) if location.dsn else Database(_path(location))
    await db.open()
    try:
        store = ReviewStore(db)
        count = await store.rating_count()
        if count < min_reviews:
            return 0, (
                f"{count} ratings logged; the optimiser needs at least {min_reviews}: "
                "the default parameters stay (try again when more reviews were answered)"
            )
        if importlib.util.find_spec("torch") is None:
            return 1, INSTALL_HINT
        parameters = fit(await store.ratings())
        await store.set_parameters(parameters, count, time.time())
        return 0, (
            f"fitted FSRS's parameters to {count} ratings and stored them; the bot uses them "
            "from its next start"
        )
    finally:
        await db.close()


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        location = store_location(args.db)
    except ConfigError as exc:
        print(f"quizbot review: {exc}", file=sys.stderr)
        return 2
    if location.dsn is None and not _path(location).is_file():
        print(f"quizbot review: no database at {location}", file=sys.stderr)
        return 1
    try:
        code, said = asyncio.run(optimize(location, max(1, args.min_reviews)))
    except StoreError as exc:
        print(f"quizbot review: {exc}", file=sys.stderr)
        return 1
    print(f"quizbot review: {said}", file=sys.stderr if code else sys.stdout)
    return code


def _path(location: Location) -> Path:
    assert location.path is not None  # a Location is a path or a URL
    return location.path
