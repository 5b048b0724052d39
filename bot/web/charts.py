"""Inline SVG charts: no script, no build step, coloured by the page's CSS (Telegram's theme).

Every chart is drawn in a 320 x 150 view box and scales to the phone's width (the stylesheet
caps it, so a desktop does not get a chart a screen tall); shapes carry classes (`bar`, `line`,
`ok`, `ko`, `axis`, `grid`, `tick`) that the stylesheet colours, and every chart comes with its
legend (`key`), where the same classes colour the swatches.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Sequence

WIDTH = 320
HEIGHT = 150  # every chart the same: the page's CSS caps its width, hence its height
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
    series: str,
    count: Callable[[int], str],
    ratios: Sequence[float | None] | None = None,
    line: str = "",
    share: Callable[[float], str] | None = None,
    every: int = 3,
    peak: int | None = None,
    right_axis: bool = True,
    caption: str = "",
    tip: Callable[[str, str], str] = lambda label, value: f"{label}: {value}",
) -> str:
    """Vertical bars (counts) under a labelled scale, every `every`-th label under its bar, and
    optionally a line of ratios (0..1, e.g. accuracy) against a percentage scale on the right;
    a legend names `series` (the bars) and `line`. `count` and `share` write a tick's number in
    the viewer's language. Even one week reads: its dot sits on the 0-50-100 % grid. `peak`
    fixes the bars' scale (100 for bars in percent: then the left scale is the line's too, and
    `right_axis` False leaves out the second one); `caption` goes under the legend."""
    with_line = ratios is not None and share is not None
    top, bottom, left, right = 10, 18, 24, 28 if with_line and right_axis else 6
    plot = HEIGHT - top - bottom
    n = max(len(values), 1)
    slot = (WIDTH - left - right) / n
    peak = peak or _nice(max(values, default=0))
    base = top + plot
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{_esc(title)}">',
        f"<title>{_esc(title)}</title>",
    ]
    for step in (0.0, 0.5, 1.0):  # the grid both scales share
        at = _num(base - plot * step)
        kind = "axis" if step == 0 else "grid"
        parts.append(f'<line class="{kind}" x1="{left}" y1="{at}" x2="{WIDTH - right}" y2="{at}"/>')
        if step != 0.5 or peak % 2 == 0:  # a count tick only where the count is whole
            parts.append(_tick("tick", left - 3, at, count(round(peak * step))))
        if with_line and share is not None and right_axis:
            parts.append(_tick("tick share", WIDTH - right + 3, at, share(step)))
    for i, value in enumerate(values):
        h = plot * value / peak
        x = left + i * slot + slot * 0.15
        y = base - h
        parts.append(
            f'<rect class="bar" x="{_num(x)}" y="{_num(y)}" width="{_num(slot * 0.7)}" '
            f'height="{_num(h)}"><title>{_esc(tip(labels[i], count(value)))}</title></rect>'
        )
        if value:  # inside a tall bar's top, where the line's dot does not sit on it
            inside = h >= 14
            parts.append(
                f'<text class="value{" in" if inside else ""}" x="{_num(x + slot * 0.35)}" '
                f'y="{_num(y + 10 if inside else y - 3)}">{_esc(count(value))}</text>'
            )
        if i % every == (n - 1) % every:
            parts.append(
                f'<text class="label" x="{_num(x + slot * 0.35)}" y="{HEIGHT - 4}">'
                f"{_esc(labels[i])}</text>"
            )
    if with_line and ratios is not None and share is not None:
        points = [
            (i, f"{_num(left + i * slot + slot / 2)},{_num(base - plot * r)}", r)
            for i, r in enumerate(ratios)
            if r is not None
        ]
        if len(points) > 1:
            parts.append(f'<polyline class="line" points="{" ".join(p for _, p, _ in points)}"/>')
        for i, point, r in points:
            cx, cy = point.split(",")
            parts.append(
                f'<circle class="dot" cx="{cx}" cy="{cy}" r="3">'
                f"<title>{_esc(tip(labels[i], share(r)))}</title></circle>"
            )
    parts.append("</svg>")
    entries = [("bar", series)] + ([("line", line)] if with_line else [])
    below = f'<figcaption class="legend">{_esc(caption)}</figcaption>' if caption else ""
    return f'<figure class="plot">{"".join(parts)}{key(entries)}{below}</figure>'


def _nice(value: int) -> int:
    """The scale's top: the first of 1, 2, 5, 10, 20, 50... that holds `value`."""
    top = 1
    while top < value:
        for factor in (2, 5 / 2, 2):
            top = int(top * factor)
            if top >= value:
                break
    return top


def _tick(kind: str, x: float, y: str, text: str) -> str:
    return f'<text class="{kind}" x="{_num(x)}" y="{y}" dy="3">{_esc(text)}</text>'


def key(entries: Sequence[tuple[str, str]]) -> str:
    """A legend: each colour (a CSS class of the chart's shapes) beside what it means."""
    items = "".join(
        f'<li><span class="swatch {_esc(css)}" aria-hidden="true"></span>{_esc(text)}</li>'
        for css, text in entries
    )
    return f'<ul class="key">{items}</ul>'


def meter(ratio: float, title: str) -> str:
    """A thin horizontal gauge of a share (accuracy), 0..1."""
    ratio = min(max(ratio, 0.0), 1.0)
    return (
        f'<svg class="meter" viewBox="0 0 100 6" preserveAspectRatio="none" role="img" '
        f'aria-label="{_esc(title)}"><rect class="track" width="100" height="6" rx="3"/>'
        f'<rect class="fill" width="{_num(100 * ratio)}" height="6" rx="3"/></svg>'
    )


def choices(
    counts: Sequence[int],
    correct: Collection[int],
    title: str,
    tip: Callable[[str, str], str] = lambda label, value: f"{label}: {value}",
) -> str:
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
        kind = colour(option, correct)
        parts.append(
            f'<rect class="{kind}" x="{_num(x)}" width="{_num(w)}" height="10">'
            f"<title>{_esc(tip(LETTERS[option], str(count)))}</title></rect>"
        )
        x += w
    parts.append("</svg>")
    return "".join(parts)


def colour(option: int, correct: Collection[int]) -> str:
    """An option's classes in `choices`: green when right, else one of four reds by its letter."""
    return "ok" if option in correct else f"ko ko{option % 4}"


def choices_key(options: int, correct: Collection[int], right: str) -> str:
    """The legend of `choices`: each option's letter by its colour, the right ones said so."""
    return key(
        [
            (colour(i, correct), f"{LETTERS[i]} · {right}" if i in correct else LETTERS[i])
            for i in range(options)
        ]
    )
