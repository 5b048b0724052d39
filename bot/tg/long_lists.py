"""Lists in one message, within Telegram's 4096 characters: whole items only, then "…and N
more" (the caller's plural-aware line), so a list never fails with "message is too long" nor is
cut inside an HTML tag.

Every list the bot sends goes through `bounded` (/schedules, /quizzes, /stats, /groupstats, a
group's quiz picker, a quiz's missed questions and mistakes). Lengths are counted on the HTML
as sent, which is never shorter than the text Telegram counts, so a list that fits here fits
there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.core.limits import MESSAGE_MAX_CHARS


def bounded(
    head: Sequence[str],
    items: Sequence[str],
    more: Callable[[int], str],
    tail: Sequence[str] = (),
    limit: int = MESSAGE_MAX_CHARS,
) -> str:
    """`head`, as many whole `items` as fit, `more(n)` for the n left out, then `tail`; lines
    joined by line feeds. An item may hold several lines (kept or dropped together)."""
    budget = limit - len("\n".join([*head, *tail])) - 1
    kept: list[str] = []
    used = 0
    for index, item in enumerate(items):
        left = len(items) - index - 1  # after this one: room for their "…and N more" too
        reserve = len(more(left)) + 1 if left else 0
        if used + len(item) + 1 + reserve > budget:
            break
        kept.append(item)
        used += len(item) + 1
    dropped = len(items) - len(kept)
    lines = [*head, *kept, *([more(dropped)] if dropped else []), *tail]
    return whole_lines(lines, limit)


def whole_lines(lines: Sequence[str], limit: int = MESSAGE_MAX_CHARS) -> str:
    """Whole lines up to `limit`, with an ellipsis line when some had to go (the last resort,
    for a head or tail that is itself too long)."""
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit - 2:
            kept.append("…")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)
