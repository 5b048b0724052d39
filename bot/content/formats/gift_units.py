"""GIFT's escapes, both ways: text read as units (a character, and whether a backslash escaped
it), and text written with its special characters escaped. Apart from the reader and the writer
because both need the one list of escapable characters, and every part of the reader walks units.

The scanner walks the text once, character by character (no backtracking regular expressions),
so a hostile file costs time linear in its size.
"""

from __future__ import annotations

from collections.abc import Sequence

Unit = tuple[str, bool]  # a character, and whether it was escaped (then it is only text)
ESCAPABLE = "~=#{}:\\"
# Spaces that are text, not layout: French puts them before : ; ! ? and inside « » (a GIFT
# export of a French translation carries them; collapsing them lost its typography).
_NO_BREAK = "\u00a0\u202f\u2007"


def scan(text: str) -> list[Unit]:
    units: list[Unit] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and (text[i + 1] in ESCAPABLE or text[i + 1] == "n"):
            units.append(("\n" if text[i + 1] == "n" else text[i + 1], True))
            i += 2
            continue
        units.append((ch, False))
        i += 1
    return units


def find(units: Sequence[Unit], wanted: str, start: int = 0) -> int:
    """Index of the first unescaped `wanted` (one or more characters) from `start`, or -1."""
    size = len(wanted)
    for i in range(start, len(units) - size + 1):
        if all(units[i + k] == (wanted[k], False) for k in range(size)):
            return i
    return -1


def plain_text(units: Sequence[Unit]) -> str:
    """Plain text: runs of unescaped whitespace (line breaks too) become one space, except the
    spaces and tabs right after an escaped line break `\\n`: the next line's indentation, which
    a code block's lines need (how our export writes them)."""
    out: list[str] = []
    indent = False
    for ch, literal in units:
        if not literal and ch.isspace() and ch not in _NO_BREAK:
            if indent and ch in " \t":
                out.append(ch)
            elif out and out[-1] != " ":
                out.append(" ")
                indent = False
            continue
        out.append(ch)
        indent = literal and ch == "\n"
    return "".join(out).strip(" ")


def escape(text: str) -> str:
    out = []
    for ch in text:
        if ch in ESCAPABLE:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        else:
            out.append(ch)
    return "".join(out)
