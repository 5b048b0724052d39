"""An exam shows on the learner's dashboard page (newcomer walk item 10), over HTTP with signed
initData, on both engines: its score is read from its practice set (an exam's answers are not
in `answers`), and "No answers yet" does not sit next to its queued misses."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC

from bot.core.exam import ExamClock
from bot.core.review import after_miss
from bot.store.practice_sets import PracticeStore
from bot.store.reviews import ReviewStore
from bot.usecases.dashboard import DashboardService
from bot.usecases.practice_outcomes import PracticeAnswered, PracticeQuestion
from bot.usecases.practice_session import PracticeSession
from tests.e2e.harness import shipped_catalog
from tests.web.world_kit import ACCUMULATION, LEARNER, World, world

__all__ = ["world"]  # the fixture, from the answer keys' tests


def values(page: str) -> dict[str, float]:
    return {k: float(v) for k, v in re.findall(r'data-key="([^"]+)" data-value="([^"]+)"', page)}


async def test_a_finished_exam_is_on_the_learner_page(world: World, db) -> None:  # type: ignore[no-untyped-def]
    practice = PracticeSession(shipped_catalog(), PracticeStore(db), ReviewStore(db),
                               clock=world.clock)  # fmt: skip
    asked = await practice.start_exam(LEARNER, ACCUMULATION, ExamClock.PER_QUESTION, 30)
    assert isinstance(asked, PracticeQuestion)
    total = asked.total
    while True:
        right = [p for p, option in enumerate(asked.order) if option in asked.question.key]
        wrong = next(p for p in range(len(asked.order)) if p not in right)
        outcome = await practice.answer(
            LEARNER, asked.set_id, asked.index, wrong if asked.index == 0 else right[0]
        )
        assert isinstance(outcome, PracticeAnswered)
        if outcome.following is None:
            break
        asked = outcome.following
    status, page = await world.get("/api/view", LEARNER)
    assert status == 200
    shown = values(page)
    assert shown["exams"] == 1
    assert shown[f"exam-best-{ACCUMULATION}"] == total - 1
    assert shown["queued"] == 1
    assert "No answers yet" not in page


async def test_a_groups_own_quiz_counts_in_the_dashboard_queue(db) -> None:  # type: ignore[no-untyped-def]
    """Newcomer walk item 27: the dashboard's queue left out a group's own quiz (served by id
    and version, never listed) that /review serves and /stats counts: one queue everywhere."""
    shipped = shipped_catalog()
    ours = replace(shipped.quizzes[ACCUMULATION], id="g5555-ours")
    catalog = shipped.with_versions([ours])
    at = 1_790_000_000.0
    items = [after_miss(LEARNER, ours.id, ours.questions[0].id, at, UTC)]
    items.append(after_miss(LEARNER, ACCUMULATION, ours.questions[1].id, at, UTC))
    await ReviewStore(db).ingest(items, [])
    page = await DashboardService(catalog, db, clock=lambda: at + 86_400).learner(LEARNER)
    assert len(page.queue) == await ReviewStore(db).queue_size(LEARNER) == 2
