"""Hostile YAML files that once hung or crashed start-up, shared by the content and start-up
tests."""

from __future__ import annotations

from pathlib import Path

from tests.reliability.support import content_copy

HOSTILE_FILE = "gradient-accumulation.yaml"


def billion_laughs(levels: int = 9) -> str:
    """Each level is a list of ten aliases of the one before: 10**levels strings once expanded."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels + 1):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "id: gradient-accumulation\n" + "\n".join(lines) + "\n"


def nested(levels: int = 100_000) -> str:
    return "id: gradient-accumulation\nquestions: " + "[" * levels + "]" * levels + "\n"


def nested_block(levels: int = 100_000) -> str:
    return "id: gradient-accumulation\nquestions:\n  " + "- " * levels + "x\n"


HOSTILE = {"billion laughs": billion_laughs(), "nested": nested(), "nested block": nested_block()}


def hostile_content(target: Path, text: str) -> Path:
    """The shipped content with one quiz file replaced by `text`."""
    content_copy(target)
    (target / "quizzes" / HOSTILE_FILE).write_text(text, "utf-8")
    return target
