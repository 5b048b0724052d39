"""An explanation too long to share its question's message, for end-to-end tests: a content edit
shared by the one-message and round tests, so no test imports another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

LONG = "A long why. " * 300  # ≈ 3,600 characters: fits alone, not with its question


def lengthen(path: Path, data: dict[str, Any]) -> None:
    if path.name.count(".") == 1 and "questions" in data:
        first = next(iter(data["questions"].values()))
        first["explanation"] = f"{first['explanation']} {LONG}"
