from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sandbox.driver import Sandbox


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    """A fresh sandbox with its data in tmp_path, killed if the test leaves it running.

    Flood limits are off: a test types far faster than a person, and Telegram's one message a
    second in a private chat would make it wait on 429s (the group test keeps them on)."""
    box = Sandbox(tmp_path, "--fresh", "--no-flood-limits")
    try:
        yield box
    finally:
        box.kill()
