"""Where `GroupRuns` finds a live run: kept in memory by one process (`KeptRuns`), or read from
the store by each of several workers (`StoredRuns`, with the copies members' taps may trust).
The composition root (bot/compose.py) picks one from `ServiceSettings.shared`; the use case does
not know which it got (issue 26).

One process is the only writer of its runs, and it holds every active one (a start keeps it, a
restart's `resume_plan` keeps what the store says is active), so its memory is the truth: a tap
costs one write and no read, and a tap on a run it does not hold names no live run. Not a plain
cached read: the use case keeps each run as its steps change it (opened, released, sent,
revealed, moved to a supergroup) and drops it when it ends or the bot leaves the group.

With several workers another may reveal a question or open the next one, so no run is kept:
every look-up reads the store. But a member's tap may trust a copy that shows the tapped
question *open* in the tap's chat, because the answer's own statement stores it only while that
question is still the run's open one (`GroupStore.record_answer`: `current_question = index AND
question_open = 1`, checked in the same statement as the insert). A stale copy can therefore
only make an accepted tap end as `Closed`, which is what a fresh read would have said; a copy
that does not show the tapped question open, or names another chat than the tap's, is never
believed (the run is read again). What a tap takes from the copy besides that is fixed for the
run's life (quiz, version, option orders) or was set when the question opened (`sent_at`). The
chat id changes only when a group becomes a supergroup, and Telegram sends no taps from the old
chat after that. Issue 32: one PostgreSQL round trip fewer per group tap.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace

from bot.core.group_run import GroupRun
from bot.core.models import Quiz
from bot.store import GroupStore

RUN_COPIES_KEPT = 1_000  # several workers: runs tapped lately, per worker (the oldest go first)

Playable = Callable[[GroupRun | None], tuple[GroupRun, Quiz] | None]  # the run with its quiz


class KeptRuns:
    """One process: every active run, kept as its steps change it."""

    def __init__(self, store: GroupStore) -> None:
        self.store = store
        self._runs: dict[int, GroupRun] = {}

    async def run(self, run_id: int) -> GroupRun | None:
        """The run, for one of its steps: as kept, else read from the store (and kept)."""
        cached = self._runs.get(run_id)
        if cached is not None:
            return cached
        run = await self.store.run(run_id)
        if run is not None:
            self.keep(run)
        return run

    async def tapped(self, run_id: int) -> GroupRun | None:
        """The live run a member's answer names; None: no run this process holds."""
        return self._runs.get(run_id)

    async def tap_run(
        self, run_id: int, index: int, chat_id: int, playable: Playable
    ) -> tuple[GroupRun, Quiz] | None:
        """The run a tap on question `index` in `chat_id` names, with its quiz."""
        del index, chat_id
        return playable(await self.tapped(run_id))

    async def in_chat(self, chat_id: int) -> list[GroupRun]:
        """Every run playing in the group, one per topic."""
        return [run for run in self._runs.values() if run.chat_id == chat_id]

    def keep(self, run: GroupRun) -> None:
        self._runs[run.id] = run

    def update(self, run: GroupRun) -> None:
        """The run as a step changed it, if it is still kept (not ended meanwhile)."""
        if run.id in self._runs:
            self._runs[run.id] = run

    def forget(self, run_id: int) -> None:
        self._runs.pop(run_id, None)

    def forget_chat(self, chat_id: int) -> None:
        for run_id in [r.id for r in self._runs.values() if r.chat_id == chat_id]:
            self._runs.pop(run_id, None)

    async def moved(self, old_id: int, new_id: int) -> None:
        """The runs of a group that became a supergroup follow it, but for one the store
        abandoned in the move (a stray run started in the old chat beside the supergroup's
        own, in the same topic: GroupStore.migrate), which is forgotten."""
        for run in [r for r in self._runs.values() if r.chat_id == old_id]:
            if await self.store.run(run.id) is None:
                self.forget(run.id)
            else:
                self.keep(replace(run, chat_id=new_id))


class StoredRuns(KeptRuns):
    """Several workers: every look-up reads the store; taps keep copies they may trust."""

    def __init__(self, store: GroupStore, limit: int = RUN_COPIES_KEPT) -> None:
        super().__init__(store)
        self.limit = limit
        self._copies: OrderedDict[int, GroupRun] = OrderedDict()  # as taps last read them

    async def run(self, run_id: int) -> GroupRun | None:
        return await self.store.run(run_id)

    async def tapped(self, run_id: int) -> GroupRun | None:
        return await self.store.run(run_id)

    async def tap_run(
        self, run_id: int, index: int, chat_id: int, playable: Playable
    ) -> tuple[GroupRun, Quiz] | None:
        """From a copy that shows question `index` open in chat `chat_id` (safe: see above),
        else read and copied."""
        copy = self._copies.get(run_id)
        if copy is not None and copy.is_open and copy.current == index and copy.chat_id == chat_id:
            found = playable(copy)
            if found is not None:
                return found
        found = playable(await self.tapped(run_id))
        if found is None:
            self._copies.pop(run_id, None)
        else:
            self._copies[run_id] = found[0]
            self._copies.move_to_end(run_id)
            if len(self._copies) > self.limit:
                self._copies.popitem(last=False)
        return found

    async def in_chat(self, chat_id: int) -> list[GroupRun]:
        return [r for r in await self.store.active_runs() if r.chat_id == chat_id]

    def keep(self, run: GroupRun) -> None:
        del run  # another worker may change it: nothing is kept
