"""Inline SVG charts: no script, no build step, coloured by the page's CSS (Telegram's theme).

Every chart is drawn in a 320-unit-wide view box and scales to the phone's width; shapes carry
classes (`bar`, `line`, `ok`, `ko`, `axis`) that the page's stylesheet colours.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence

WIDTH = 320
LETTERS = "ABCDEFGHIJ"


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def bars(
    values: Sequence[int],
    labels: Sequence[str],
    title: str,
    *,
    ratios: Sequence[float | None] | None = None,
    height: int = 140,
    every: int = 3,
    peak: int | None = None,
) -> str:
    """Vertical bars (counts), every `every`-th label under its bar, and optionally a line of
    ratios (0..1, e.g. accuracy) drawn over them against the full height. The bars' full
    height is the largest value, or `peak` (100 for percentages, on the line's scale)."""
    top, bottom, left = 14, 18, 4
    plot = height - top - bottom
    n = max(len(values), 1)
    slot = (WIDTH - 2 * left) / n
    peak = peak or max(values, default=0) or 1
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{_esc(title)}">',
        f"<title>{_esc(title)}</title>",
        f'<line class="axis" x1="{left}" y1="{top + plot}" x2="{WIDTH - left}" y2="{top + plot}"/>',
    ]
    for i, value in enumerate(values):
        h = plot * value / peak
        x = left + i * slot + slot * 0.15
        y = top + plot - h
        parts.append(
            f'<rect class="bar" x="{_num(x)}" y="{_num(y)}" width="{_num(slot * 0.7)}" '
            f'height="{_num(h)}"><title>{_esc(labels[i])}: {value}</title></rect>'
        )
        if value:
            parts.append(
                f'<text class="value" x="{_num(x + slot * 0.35)}" y="{_num(y - 3)}">{value}</text>'
            )
        if i % every == (n - 1) % every:
            parts.append(
                f'<text class="label" x="{_num(x + slot * 0.35)}" y="{height - 4}">'
                f"{_esc(labels[i])}</text>"
            )
    if ratios is not None:
        points = [
            f"{_num(left + i * slot + slot / 2)},{_num(top + plot * (1 - r))}"
            for i, r in enumerate(ratios)
            if r is not None
        ]
        if points:
            parts.append(f'<polyline class="line" points="{" ".join(points)}"/>')
            for point in points:
                cx, cy = point.split(",")
                parts.append(f'<circle class="dot" cx="{cx}" cy="{cy}" r="2.5"/>')
    parts.append("</svg>")
    return "".join(parts)


def meter(ratio: float, title: str) -> str:
    """A thin horizontal gauge of a share (accuracy), 0..1."""
    ratio = min(max(ratio, 0.0), 1.0)
    return (
        f'<svg class="meter" viewBox="0 0 100 6" preserveAspectRatio="none" role="img" '
        f'aria-label="{_esc(title)}"><rect class="track" width="100" height="6" rx="3"/>'
        f'<rect class="fill" width="{_num(100 * ratio)}" height="6" rx="3"/></svg>'
    )


def choices(counts: Sequence[int], correct: Collection[int], title: str) -> str:
    """One stacked bar: how many chose each option, the right ones green, the others in shades
    of red (the letters and numbers are in the table beside it)."""
    total = sum(counts) or 1
    parts = [
        f'<svg class="choices" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" '
        f'aria-label="{_esc(title)}"><rect class="track" width="100" height="10"/>'
    ]
    x = 0.0
    for option, count in enumerate(counts):
        if not count:
            continue
        w = 100 * count / total
        kind = "ok" if option in correct else f"ko ko{option % 4}"
        parts.append(
            f'<rect class="{kind}" x="{_num(x)}" width="{_num(w)}" height="10">'
            f"<title>{LETTERS[option]}: {count}</title></rect>"
        )
        x += w
    parts.append("</svg>")
    return "".join(parts)
