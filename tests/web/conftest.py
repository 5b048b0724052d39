from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pgserver import db_on_both_engines, engine
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
