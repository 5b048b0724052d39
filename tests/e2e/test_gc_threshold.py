"""A running bot collects its young generation every YOUNG_GC_THRESHOLD net allocations, not
CPython's 700: at 700 the objects of the updates in flight set off collections that cost 9 % of
the process's CPU in the benchmark's closed loop (BENCHMARKS.md, wave twelve)."""

from __future__ import annotations

import gc
from pathlib import Path

from bot.tg.app import YOUNG_GC_THRESHOLD
from tests.e2e.harness import running


async def test_a_started_bot_raises_the_young_generations_threshold(tmp_path: Path) -> None:
    async with running(tmp_path):
        assert gc.get_threshold()[0] == YOUNG_GC_THRESHOLD
    assert YOUNG_GC_THRESHOLD > 700  # CPython's default, which the bot replaces
