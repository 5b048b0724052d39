"""Group commit: what many tasks ask for at once goes to the database as ONE statement.

SQLite's single writer batches a burst of answers into one statement (bot/store/answer_batch.py);
on PostgreSQL each task used to send its own, so a burst of N taps was N round trips, N
transactions and N WAL flushes, and the server's CPU went to the trips rather than to the work
(BENCHMARKS.md, issue 32). `GroupCommit` restores the batching without adding a wait: the first
item is flushed at once, and every item submitted while a flush is in flight goes, together, in
the next one. At most one flush runs at a time; each caller gets its own item's result (or the
flush's error) only once its flush has returned, that is, once it is committed. Reads batch the
same way (a burst's first-seen learners read in one statement: store/learner_choices.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

I = TypeVar("I")  # noqa: E741 - an item, as in the standard library's typing examples
R = TypeVar("R")


class GroupCommit(Generic[I, R]):
    """`submit(item)` returns `flush(batch)[i]` for its item, the batch being what was queued."""

    def __init__(
        self, flush: Callable[[list[I]], Awaitable[Sequence[R]]], *, max_batch: int = 256
    ) -> None:
        self._flush, self.max_batch = flush, max_batch
        self._queue: list[tuple[I, asyncio.Future[R]]] = []
        self._task: asyncio.Task[None] | None = None
        self.flushes = 0  # statements sent, for tests and the benchmark

    async def submit(self, item: I) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_retrieved)  # a cancelled caller's error is not "unretrieved"
        self._queue.append((item, future))
        if self._task is None:
            self._task = asyncio.create_task(self._drain(), name="group-commit")
        # The flush goes on if this caller is cancelled: its item is already on its way.
        return await asyncio.shield(future)

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch = self._queue[: self.max_batch]
                del self._queue[: self.max_batch]
                self.flushes += 1
                try:
                    results = await self._flush([item for item, _ in batch])
                except Exception as exc:
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
        finally:
            self._task = None
            left, self._queue = self._queue, []  # only if the drain itself was cancelled
            for _, future in left:
                future.cancel()

    async def idle(self) -> None:
        """Until nothing is queued or in flight (a stop waits for its last flush)."""
        while self._task is not None:
            await asyncio.sleep(0.005)


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
