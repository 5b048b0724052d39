"""CPU per review answer (next_card + answer) on a real SQLite store, with this tree's code:
`PYTHONPATH=$PWD python tests/store/measure_review_tap.py [LEARNERS]` (BENCHMARKS.md, FSRS). It
runs on code from before FSRS too (answers untimed there), to compare the two."""

import asyncio
import inspect
import sys
import tempfile
import time
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.core.review import after_miss
from bot.store import Database
from bot.store.reviews import ReviewStore
from bot.usecases.spaced_review import SpacedReview
from tests.e2e.harness import shipped_catalog

TIMED = "elapsed_ms" in inspect.signature(SpacedReview.answer).parameters
N = int(sys.argv[1]) if len(sys.argv) > 1 else 400
NOW = 1_790_000_000.0


class Clock:
    now = NOW

    def __call__(self):
        return self.now


async def main():
    cat = shipped_catalog()
    quiz = cat.quizzes["gradient-accumulation"]
    qids = [q.id for q in quiz.questions if not q.typed and q.kind.value != "multiple"][:4]
    with tempfile.TemporaryDirectory() as d:
        db = Database(Path(d) / "q.sqlite3")
        await db.open()
        store = ReviewStore(db)
        clock = Clock()
        review = SpacedReview(cat, store, clock=clock)
        items = [after_miss(u, quiz.id, q, NOW, ZoneInfo("UTC")) for u in range(N) for q in qids]
        await store.ingest(items, [])
        clock.now = NOW + 2 * 86400
        await review.sync()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        done = 0
        for u in range(N):
            for _ in qids:
                card = await review.next_card(u)
                order = "".join(map(str, card.order))
                pos = card.order.index(card.question.correct)
                kw = {"elapsed_ms": 3000 + u} if TIMED else {}
                assert await review.answer(u, card.item_id, order, pos, **kw) is not None
                done += 1
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        await db.close()
    print(
        f"{done} review answers: {cpu / done * 1e3:.3f} ms CPU, "
        f"{wall / done * 1e3:.3f} ms wall per answer (next_card + answer)"
    )


asyncio.run(main())
