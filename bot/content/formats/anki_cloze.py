"""Anki's cloze deletions: `{{c1::answer}}` or `{{c1::answer::hint}}`, one card per number.

Card n shows the text with every deletion numbered n replaced by `[...]` (or `[hint]`) and the
others shown as their answer; its back is the whole text. Deletions may nest (Anki 2.1.56 on:
`{{c1::Canberra is {{c2::in Australia}}}}`). One linear pass over the text builds the tree
(no backtracking pattern: a field full of unclosed `{{c1::` stays linear); an unclosed opener
or a stray `}}` is kept as text, as Anki shows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r"\{\{c(\d{1,4})::|\}\}")
MAX_DEPTH = 16  # deletions inside deletions; deeper openers are text (and recursion bounded)


@dataclass(slots=True)
class _Deletion:
    number: int
    parts: list[str | _Deletion] = field(default_factory=list)
    hint: str = ""
    opener: str = ""  # as written, to give an unclosed one back as text


def _parse(text: str) -> list[str | _Deletion]:
    top: list[str | _Deletion] = []
    stack: list[_Deletion] = []
    at = 0
    for token in _TOKEN.finditer(text):
        where = stack[-1].parts if stack else top
        if token.start() > at:
            where.append(text[at : token.start()])
        at = token.end()
        if token[1] is not None and len(stack) >= MAX_DEPTH:
            where.append(token[0])
        elif token[1] is not None:
            stack.append(_Deletion(int(token[1]), opener=token[0]))
        elif stack:
            done = stack.pop()
            _split_hint(done)
            (stack[-1].parts if stack else top).append(done)
        else:
            top.append(token[0])
    (stack[-1].parts if stack else top).append(text[at:])
    while stack:  # unclosed: its opener and contents as text, in place
        open_ = stack.pop()
        (stack[-1].parts if stack else top).extend([open_.opener, *open_.parts])
    return top


def _split_hint(deletion: _Deletion) -> None:
    """Anki's hint follows the first `::` written directly inside the deletion."""
    for i, part in enumerate(deletion.parts):
        if isinstance(part, str) and "::" in part:
            answer, hint = part.split("::", 1)
            rest = "".join(_render(p, 0) for p in deletion.parts[i + 1 :])
            deletion.hint = hint + rest
            deletion.parts = [*deletion.parts[:i], answer]
            return


def _render(part: str | _Deletion, hidden: int) -> str:
    if isinstance(part, str):
        return part
    if part.number == hidden:
        return f"[{part.hint}]" if part.hint else "[...]"
    return "".join(_render(p, hidden) for p in part.parts)


def _numbers(parts: list[str | _Deletion], found: set[int]) -> set[int]:
    for part in parts:
        if isinstance(part, _Deletion):
            found.add(part.number)
            _numbers(part.parts, found)
    return found


@dataclass(frozen=True, slots=True)
class ClozeCard:
    number: int
    front: str
    back: str


def cloze_cards(text: str) -> list[ClozeCard]:
    """One card per deletion number, in number order; [] when the text has no deletion."""
    parts = _parse(text)
    back = "".join(_render(p, 0) for p in parts)
    return [
        ClozeCard(n, "".join(_render(p, n) for p in parts), back)
        for n in sorted(_numbers(parts, set()))
        if n > 0
    ]
