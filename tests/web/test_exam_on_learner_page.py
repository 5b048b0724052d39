"""An exam shows on the learner's dashboard page (newcomer walk item 10), over HTTP with signed
initData, on both engines: its score is read from its practice set (an exam's answers are not
in `answers`), and "No answers yet" does not sit next to its queued misses."""

from __future__ import annotations

import re

from bot.core.exam import ExamClock
from bot.store.practice_sets import PracticeStore
from bot.store.reviews import ReviewStore
from bot.usecases.practice_session import PracticeAnswered, PracticeQuestion, PracticeSession
from tests.e2e.harness import shipped_catalog
from tests.web.test_answer_keys import ACCUMULATION, LEARNER, World, world

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
