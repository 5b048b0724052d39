"""Select-all questions for end-to-end tests: a catalogue whose first question asks to select every
right option. Shared by the select-all tests, so no test imports another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

QUIZ = "gradient-checkpointing"
SELECT_ALL = "checkpointing-facts"


def select_all_first(path: Path, data: dict[str, Any]) -> None:
    """The quiz's select-all question first, then one single-answer question."""
    if SELECT_ALL in data.get("questions", {}):
        questions = data["questions"]
        data["questions"] = {k: questions[k] for k in (SELECT_ALL, "trade-off")}
