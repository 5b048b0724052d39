"""Inline code in content strings: `backticks` mark code that must never be translated.

The content checker compares code spans across languages; the renderer turns them into <code>.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"`([^`\n]+)`")


def split_code(text: str) -> list[tuple[bool, str]]:
    """Split into (is_code, piece) runs, code pieces without their backticks."""
    if "`" not in text:  # most strings: no code at all
        return [(False, text)] if text else []
    pieces: list[tuple[bool, str]] = []
    pos = 0
    for match in _CODE.finditer(text):
        if match.start() > pos:
            pieces.append((False, text[pos : match.start()]))
        pieces.append((True, match.group(1)))
        pos = match.end()
    if pos < len(text):
        pieces.append((False, text[pos:]))
    return pieces


def code_spans(text: str) -> list[str]:
    """The code spans of a string, in order."""
    if "`" not in text:
        return []
    return _CODE.findall(text)


def plain(text: str) -> str:
    """The string with backticks removed, for places that cannot show formatting (popups)."""
    if "`" not in text:
        return text
    return "".join(piece for _, piece in split_code(text))
