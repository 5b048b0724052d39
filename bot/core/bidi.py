"""People's names (and group titles) as the bot shows them among other text: isolated, so a name
in Arabic script or with a stray direction control cannot reorder the rest of the line.

A member named "Eve" + U+202E (RIGHT-TO-LEFT OVERRIDE, never closed) reversed the rest of their
leaderboard line in every client. `isolate` wraps a name in FIRST STRONG ISOLATE ... POP
DIRECTIONAL ISOLATE (U+2068 ... U+2069, Unicode's bidi algorithm UAX #9: the inside takes its
own direction and the outside is laid out as if it were one neutral character), after dropping
every control that is not closed inside the name (a closed pair, say RLE ... PDF, is the
person's own and stays). The same text is isolated in Telegram messages and on the dashboard's
pages, where browsers follow the same algorithm.

Other text people write and the bot repeats (an uploaded quiz's title or file name, a command's
argument quoted back) goes through `isolate_if_needed`: isolated the same way when it holds a
right-to-left letter or a direction control, otherwise left as it is. Left-to-right text cannot
reorder a left-to-right line, so the shipped catalogue's titles, and most uploads', stay
exactly what their authors wrote (what people copy and search for).
"""

from __future__ import annotations

import unicodedata

FSI, PDI = "\u2068", "\u2069"
PDF = "\u202c"
EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")  # LRE RLE LRO RLO, closed by PDF
ISOLATES = frozenset("\u2066\u2067\u2068")  # LRI RLI FSI, closed by PDI


def balanced(text: str) -> str:
    """`text` without the direction controls it does not close (PDF and PDI without an opener
    too). As in UAX #9, a PDI closes its isolate and every embedding opened inside it."""
    kept: list[str | None] = list(text)
    open_: list[int] = []  # indexes of openers not closed yet, innermost last
    for index, char in enumerate(text):
        if char in EMBEDDINGS or char in ISOLATES:
            open_.append(index)
        elif char == PDF:
            if open_ and text[open_[-1]] in EMBEDDINGS:
                open_.pop()
            else:  # no embedding to close (or an isolate is the innermost): a stray PDF
                kept[index] = None
        elif char == PDI:
            if not any(text[i] in ISOLATES for i in open_):
                kept[index] = None
                continue
            while text[open_[-1]] not in ISOLATES:  # embeddings left open inside the isolate
                kept[open_.pop()] = None
            open_.pop()
    for index in open_:
        kept[index] = None
    return "".join(char for char in kept if char is not None)


def isolate(name: str) -> str:
    """A user-supplied name ready to sit inside a line of ours (escape it for HTML after)."""
    return FSI + balanced(name) + PDI


# Bidi classes that can move text around them: right-to-left letters and digits, and the
# explicit controls. Left-to-right letters and neutrals cannot, in our left-to-right lines.
_MOVING = frozenset(
    {"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
)


def isolate_if_needed(text: str) -> str:
    """User-written text (a title, a typed argument) ready for a line of ours: `isolate`d when
    it could reorder the line, else unchanged (escape it for HTML after)."""
    if any(unicodedata.bidirectional(char) in _MOVING for char in text):
        return isolate(text)
    return text
