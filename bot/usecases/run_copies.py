"""Copies of group runs that members' taps read, for a worker sharing the store with others.

With several workers a tap cannot trust a run kept in memory: another worker may have revealed
its question or opened the next one. But a copy that shows the tapped question *open* needs no
fresh read, because the answer's own statement stores it only while that question is still the
run's open one (`GroupStore.record_answer`: `current_question = index AND question_open = 1`,
checked in the same statement as the insert). A stale copy can therefore only make an accepted
tap end as `Closed`, which is what a fresh read would have said; a copy that does not show the
tapped question open, or names another chat than the tap's, is never believed (the run is read
again). What a tap takes from the copy besides that is fixed for the run's life (quiz, version,
option orders) or was set when the question opened (`sent_at`). The chat id changes only when a
group becomes a supergroup, and Telegram sends no taps from the old chat after that.
Issue 32: one PostgreSQL round trip fewer per group tap.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.core.group_run import GroupRun

RUN_COPIES_KEPT = 1_000  # runs tapped lately, per worker (the oldest go first)


class RunCopies:
    def __init__(self, limit: int = RUN_COPIES_KEPT) -> None:
        self.limit = limit
        self._runs: OrderedDict[int, GroupRun] = OrderedDict()

    def open_at(self, run_id: int, index: int, chat_id: int) -> GroupRun | None:
        """The copy of run `run_id` when it shows question `index` open in `chat_id`."""
        run = self._runs.get(run_id)
        if run is None or not run.is_open or run.current != index or run.chat_id != chat_id:
            return None
        return run

    def keep(self, run: GroupRun) -> None:
        self._runs[run.id] = run
        self._runs.move_to_end(run.id)
        if len(self._runs) > self.limit:
            self._runs.popitem(last=False)

    def forget(self, run_id: int) -> None:
        self._runs.pop(run_id, None)
