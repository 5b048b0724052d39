"""Number questions for end-to-end tests: a content edit that adds a typed-number question
to the quiz (in en, fr and wo), and the group setting that lets members type answers. Shared by
the private, group and flood tests, so no test imports another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.emulator.driver import ChatView, SimUser

QUIZ = "gradient-accumulation"
PROMPTS = {
    "en": "Micro-batches of 0.25 GB of activations, two of them in memory: how many GB is that?",
    "fr": "Des micro-lots de 0,25 Go d’activations, deux en mémoire : combien de Go cela fait-il ?",
    "wo": "Ay micro-lot yu am 0,25 GB ci activations, ñaar ci mémoire: ñaata GB la?",
}
UNITS = {"en": "GB", "fr": "Go", "wo": "GB"}
WHY = {
    "en": "Two micro-batches of 0.25 GB each: 0.5 GB.",
    "fr": "Deux micro-lots de 0,25 Go chacun : 0,5 Go.",
    "wo": "Ñaari micro-lot yu nekk 0,25 GB: 0,5 GB.",
}


def with_number(path: Path, data: dict[str, Any]) -> None:
    """Adds a number question (0.5 GB ± 0.05) after the first two questions of the quiz."""
    if not path.name.startswith(QUIZ) or "questions" not in data:
        return
    lang = path.name.split(".")[1] if path.name.count(".") == 2 else "en"
    question: dict[str, Any] = {"prompt": PROMPTS[lang], "explanation": WHY[lang]}
    question["unit"] = UNITS[lang]
    if lang == "en":
        question = {"kind": "number", **question, "answer": {"value": "0.5", "tolerance": "0.05"}}
    elif lang == "wo":
        data.setdefault("same_as_source", []).append("questions.memory-number.unit")
    data["questions"]["memory-number"] = question


async def typed_on(group: ChatView, admin: SimUser) -> None:
    """An admin turns typed answers on in the group's settings."""
    mark = group.mark()
    await admin.send("/settings", chat=group)
    screen = await group.wait_for(lambda m: "Group settings" in m.text, after=mark)
    assert "Typed answers: off" in screen.text
    await admin.tap(screen, "Typed answers on")
    await group.wait_for(lambda m: "Typed answers: on" in m.text)
