"""Code in content strings: `backticks` and ```python fenced blocks``` mark code that must
never be translated.

The content checker compares code spans and blocks across languages (a block is compared
whole, language tag included); the renderer turns spans into <code> and blocks into
<pre><code class="language-python">.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"`([^`\n]+)`")
_FENCE = re.compile(r"```([A-Za-z0-9_+-]*)[ \t]*\n(.*?)\n?```", re.DOTALL)


def split_code(text: str) -> list[tuple[bool, str]]:
    """Split into (is_code, piece) runs: inline code without its backticks, a fenced block
    whole (```lang ... ```, see `fenced`)."""
    if "`" not in text:  # most strings: no code at all
        return [(False, text)] if text else []
    if "```" not in text:
        return _split_inline(text)
    pieces: list[tuple[bool, str]] = []
    pos = 0
    for match in _FENCE.finditer(text):
        pieces += _split_inline(text[pos : match.start()])
        pieces.append((True, match.group(0)))
        pos = match.end()
    return pieces + _split_inline(text[pos:])


def fenced(piece: str) -> tuple[str, str] | None:
    """(language, code) of a fenced block piece from `split_code`; None for inline code."""
    match = _FENCE.fullmatch(piece)
    return (match.group(1), match.group(2)) if match else None


def _split_inline(text: str) -> list[tuple[bool, str]]:
    if "`" not in text:
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
    """The code spans and fenced blocks of a string, in order."""
    if "`" not in text:
        return []
    if "```" not in text:
        return _CODE.findall(text)
    return [piece for is_code, piece in split_code(text) if is_code]


def plain(text: str) -> str:
    """The string with backticks removed, for places that cannot show formatting (popups)."""
    if "`" not in text:
        return text
    return "".join(
        (block[1] if (block := fenced(piece)) else piece) if is_code else piece
        for is_code, piece in split_code(text)
    )
