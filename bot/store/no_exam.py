"""`CachedNoExam`: a `PracticeStore` that keeps which learners it read to have no exam running,
so a private tap (which must wait while an exam runs, issue 25) costs no read (issue 32).

Only for a single process: there only `start` with an exam makes an exam run, and it forgets
the learner once its write is committed (or failed); a read that overlapped any exam start is
not kept (a counter of starts moved meanwhile), so "no exam" is never kept past a start. With
several workers another may start the exam, so the composition root (bot/compose.py) gives the
plain `PracticeStore`, which reads every time (docs/caches.md). Bounded: at most
`NO_EXAM_KEPT` learners, then all forgotten at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.practice import QuestionKey
from bot.store.interface import Engine
from bot.store.practice_sets import Ended, PracticeStore, StoredSet

NO_EXAM_KEPT = 100_000  # learners known to have no exam running, at most (then forgotten)


class CachedNoExam(PracticeStore):
    def __init__(self, db: Engine) -> None:
        super().__init__(db)
        self._no_exam: set[int] = set()
        self._exam_starts = 0

    async def running_exam(self, user_id: int) -> StoredSet | None:
        """None straight from memory for a learner read to have none since the last start."""
        if user_id in self._no_exam:
            return None
        starts = self._exam_starts
        running = await super().running_exam(user_id)
        if running is None and starts == self._exam_starts:
            if len(self._no_exam) >= NO_EXAM_KEPT:
                self._no_exam.clear()
            self._no_exam.add(user_id)
        return running

    async def start(
        self,
        user_id: int,
        questions: Sequence[QuestionKey],
        orders: Sequence[Sequence[int]],
        seen: Sequence[QuestionKey] | None,
        now: float,
        ended: Ended,
        exam: tuple[str, float] | None = None,
    ) -> int:
        try:
            return await super().start(user_id, questions, orders, seen, now, ended, exam)
        finally:  # committed (or not): "no exam" is no longer known, and no read in flight
            if exam is not None:
                self._exam_starts += 1  # may keep the answer it read before the commit
                self._no_exam.discard(user_id)
