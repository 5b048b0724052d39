"""Pictured questions for end-to-end tests: a content copy whose first question carries a picture.
Shared by the image and report tests, so no test imports another."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.content import load_catalog
from bot.core.models import Catalog
from tests.reliability.support import content_copy

QUIZ = "gradient-checkpointing"
PICTURE = "sqrt-n-checkpoints.png"
LONG = " Think about which activations stay in memory." * 25  # ≈ 1,200 characters more


def picture_first(
    *, long_prompt: bool = False, explained: bool = False, long_why: bool = False
) -> Callable[..., None]:
    """An edit for `content_copy`: the checkpointing quiz asks its pictured question (sqrt-n)
    first, then trade-off; optionally a prompt too long for a caption, and a picture with
    trade-off's explanation."""

    def edit(path: Path, data: dict[str, Any]) -> None:
        if not path.name.startswith(QUIZ) or "questions" not in data:
            return
        questions = data["questions"]
        data["questions"] = {"sqrt-n": questions["sqrt-n"], "trade-off": questions["trade-off"]}
        source = path.name == f"{QUIZ}.yaml"
        if long_prompt and source:
            questions["sqrt-n"]["prompt"] += LONG
        if long_why and source:  # the question fits a caption; with its explanation, it does not
            questions["sqrt-n"]["explanation"] += LONG
        if explained:
            lang = path.name.split(".")[1] if not source else "en"
            image: dict[str, str] = {"alt": f"Diagram for the trade-off ({lang})"}
            if source:
                image["file"] = PICTURE
            questions["trade-off"]["explanation_image"] = image

    return edit


def catalog(tmp_path: Path, **options: bool) -> Catalog:
    return load_catalog(content_copy(tmp_path / "content", edit=picture_first(**options)))
