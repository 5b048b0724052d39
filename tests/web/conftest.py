from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.pgserver import db_on_both_engines, engine
from tests.web.browser_kit import launch
from tests.web.scenario import Served

__all__ = ["db_on_both_engines", "engine"]  # a test here that takes `db` runs on both engines


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One world for every dashboard test: built once (about two seconds), never written to."""
    world = Served(Path(tmp_path_factory.mktemp("dashboard")))
    world.start()
    try:
        yield world
    finally:
        world.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One browser for every test of a module. Module-scoped, not session-scoped: Playwright's
    sync API keeps an event loop running in this thread while it is open, which the suite's
    async tests that come later could not share."""
    yield from launch()
