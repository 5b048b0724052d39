"""Every UI string is a call of its own.

A `_(...)` or `ngettext(...)` call inside an f-string expression is invisible to `pybabel
extract`, so its text would reach French and Wolof chats in English.
"""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
TRANSLATING = {"_", "ngettext", "N_"}


def _called_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def translations_inside_fstrings(source: str, filename: str = "<string>") -> list[int]:
    """Line numbers of translating calls that sit inside an f-string's expression."""
    lines: list[int] = []
    for joined in ast.walk(ast.parse(source, filename)):
        if not isinstance(joined, ast.JoinedStr):
            continue
        for node in ast.walk(joined):
            if isinstance(node, ast.Call) and _called_name(node) in TRANSLATING:
                lines.append(node.lineno)
    return lines


def test_the_detector_sees_a_call_in_an_fstring() -> None:
    assert translations_inside_fstrings("x = f\"<b>{tr._('Scores')}</b>\"") == [1]
    assert translations_inside_fstrings("x = f\"{tr.ngettext('a', 'b', n)}!\"") == [1]
    assert translations_inside_fstrings("x = f\"<b>{label}</b>\"\nlabel = tr._('Scores')") == []


def test_no_translation_call_inside_an_fstring() -> None:
    found = [
        f"{path.relative_to(BOT.parent)}:{line}"
        for path in sorted(BOT.rglob("*.py"))
        for line in translations_inside_fstrings(path.read_text(encoding="utf-8"), str(path))
    ]
    assert found == [], "move each msgid out of the f-string: label = tr._('...'), then f'{label}'"
