"""Measure the progress queries on a million answers: `python -m tests.store.measure_progress`.

Not a test (it takes about a minute): it builds a temporary database through the real
migrations, fills it with generated attempts and answers, times /stats, /groupstats, the review
inbox drain and a chat's export through the real stores, and prints each query plan.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from bot.store import Database
from bot.store.analytics import AnalyticsStore, export_rows
from bot.store.reviews import ReviewStore
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.spaced_review import SpacedReview
from tests.e2e.harness import shipped_catalog

USERS, GROUPS, QUESTIONS = 20_000, 2_000, 8


def fill(path: Path, answers: int, rng: random.Random) -> None:
    conn = sqlite3.connect(path)
    quizzes = list(shipped_catalog().quizzes)
    attempts, rows, now = [], [], 1_700_000_000.0
    attempt_id = 0
    while len(rows) < answers:
        attempt_id += 1
        now += 1.0
        group = rng.random() < 0.4
        quiz = rng.choice(quizzes)
        chat = -rng.randrange(1, GROUPS + 1) if group else rng.randrange(1, USERS + 1)
        members = rng.sample(range(1, USERS + 1), 10) if group else [chat]
        attempts.append(
            (
                attempt_id,
                "group" if group else "private",
                chat,
                members[0],
                quiz,
                "[]",
                "finished",
                now,
                now + 60,
            )
        )
        for q in range(QUESTIONS):
            for user in members:
                right = rng.random() < 0.7
                rows.append(
                    (
                        attempt_id,
                        q,
                        user,
                        rng.randrange(4),
                        int(right),
                        rng.choice(["en", "fr", "wo"]),
                        now + q,
                        1000,
                    )
                )
    conn.executemany(
        "INSERT INTO attempts (id, kind, chat_id, user_id, quiz_id, option_orders, "
        "status, started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?)",
        attempts,
    )
    conn.executemany("INSERT INTO answers VALUES (?,?,?,?,?,?,?,?)", rows[:answers])
    conn.commit()
    conn.close()


async def timed(label: str, coro: object) -> None:
    start = time.perf_counter()
    await coro  # type: ignore[misc]
    print(f"{label:<40} {1000 * (time.perf_counter() - start):8.2f} ms")


async def measure(answers: int) -> None:
    rng = random.Random(6)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "measure.sqlite3"
        db = Database(path)
        await db.open()  # migrations 001..003
        await db.close()
        start = time.perf_counter()
        fill(path, answers, rng)
        print(f"filled {answers:,} answers in {time.perf_counter() - start:.1f} s")
        db = Database(path)
        await db.open()
        try:
            analytics = AnalyticsStore(db)
            review = SpacedReview(shipped_catalog(), ReviewStore(db), clock=lambda: 1_800_000_000.0)
            progress = LearnerStatsCases(
                shipped_catalog(), analytics, review, clock=lambda: 1_800_000_000.0
            )
            busiest = int(
                (
                    await (
                        await db.reader.execute(
                            "SELECT user_id FROM answers GROUP BY user_id "
                            "ORDER BY count(*) DESC LIMIT 1"
                        )
                    ).fetchone()
                )[0]
            )
            chat = int(
                (
                    await (
                        await db.reader.execute(
                            "SELECT chat_id FROM attempts WHERE kind = 'group' GROUP BY chat_id "
                            "ORDER BY count(*) DESC LIMIT 1"
                        )
                    ).fetchone()
                )[0]
            )
            (inbox,) = await (
                await db.reader.execute("SELECT count(*) FROM review_inbox")
            ).fetchone()
            await timed(f"inbox drain ({inbox:,} misses, backfill)", review.sync())
            for _ in range(2):  # the second round: warm cache
                await timed(f"/stats user {busiest}", progress.stats(busiest))
                await timed(f"/groupstats chat {chat}", progress.group_report(chat))
                await timed("/review next card", review.next_card(busiest))
            conn = sqlite3.connect(path)
            start = time.perf_counter()
            count = sum(1 for _ in export_rows(conn, chat))
            print(
                f"{'export --chat (' + str(count) + ' rows)':<40} "
                f"{1000 * (time.perf_counter() - start):8.2f} ms"
            )
            for sql in [
                "SELECT a.quiz_id FROM attempts a LEFT JOIN answers an ON an.attempt_id = a.id "
                "AND +an.user_id = a.user_id WHERE a.user_id = 1 AND a.kind = 'private' "
                "AND a.status = 'finished' GROUP BY a.id",
                "SELECT a.quiz_id FROM answers an JOIN attempts a ON a.id = an.attempt_id "
                "WHERE an.user_id = 1 GROUP BY a.quiz_id",
                "SELECT a.quiz_id, an.question_index, count(*) FROM attempts a JOIN answers an "
                "ON an.attempt_id = a.id WHERE a.chat_id = -1 AND a.kind = 'group' "
                "GROUP BY 1, 2",
                "SELECT * FROM review_items WHERE user_id = 1 AND due_at <= 0 "
                "ORDER BY due_at, id LIMIT 1",
            ]:
                plan = conn.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
                print("plan:", " | ".join(row[3] for row in plan))
            conn.close()
        finally:
            await db.close()


if __name__ == "__main__":
    asyncio.run(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000))
