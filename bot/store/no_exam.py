"""`CachedNoExam`: a `PracticeStore` that keeps which learners it read to have no exam running,
so a private tap (which must wait while an exam runs, issue 25) costs no read (issue 32).

Only `start` with an exam makes an exam run, and it announces that in its transaction
(store/row_changes.py, `EXAMS`): this process hears its own once the write is over, and with
several workers the others' through PostgreSQL LISTEN/NOTIFY (store/pg/row_listener.py).
Hearing a start forgets the learner, and a read that overlapped any change heard is not kept,
so "no exam" is never kept past a start heard. Where other processes' starts cannot be heard
(several workers not listening yet, or the listening connection dropped) nothing is kept; the
composition root (bot/compose.py) gives the plain `PracticeStore` to workers without a listening
engine (docs/caches.md). An exam ending needs no announcement: only "no exam" is kept.
Bounded: at most `NO_EXAM_KEPT` learners, then all forgotten at once.
"""

from __future__ import annotations

from bot.store.interface import Engine
from bot.store.practice_sets import PracticeStore, StoredSet
from bot.store.row_changes import EXAMS

NO_EXAM_KEPT = 100_000  # learners known to have no exam running, at most (then forgotten)


class CachedNoExam(PracticeStore):
    def __init__(self, db: Engine) -> None:
        super().__init__(db)
        self._no_exam: set[int] = set()
        self._changes = db.changes
        self._changes.follow(EXAMS, self._drop)

    def _drop(self, user_id: int | None) -> None:
        if user_id is None:
            self._no_exam.clear()
        else:
            self._no_exam.discard(user_id)

    async def running_exam(self, user_id: int) -> StoredSet | None:
        """None straight from memory for a learner read to have none since the last start."""
        if user_id in self._no_exam:
            return None
        token = self._changes.token()
        running = await super().running_exam(user_id)
        if running is None and self._changes.keeps(token):
            if len(self._no_exam) >= NO_EXAM_KEPT:
                self._no_exam.clear()
            self._no_exam.add(user_id)
        return running
