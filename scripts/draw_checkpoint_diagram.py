"""Draw content/media/sqrt-n-checkpoints.png: where checkpoints sit in a chain of N layers.

The picture of the gradient-checkpointing quiz's `sqrt-n` question. It carries no words, only
layer numbers and symbols, because one picture serves every language (the alt text in each
language file says what it shows). Written as SVG (kept beside the PNG, reviewable as text) and
rendered to PNG by the system's headless Chromium, which the dashboard's browser tests already
use: no drawing library is added to quizbot's dependencies.

    python scripts/draw_checkpoint_diagram.py            # writes the .svg and the .png
    python scripts/draw_checkpoint_diagram.py --svg-only

Chromium comes from Debian (`apt-get install chromium`); set CHROMIUM to use another binary.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "content" / "media" / "sqrt-n-checkpoints"
WIDTH, HEIGHT = 1200, 440
N, SEGMENT = 16, 4  # 16 layers, a checkpoint every √16 = 4 layers
BOX, GAP, LEFT, TOP = 52, 10, 90, 190
KEPT, DROPPED, REBUILT, INK = "#1f6feb", "#d0d7de", "#f2a33a", "#24292f"


def _x(layer: int) -> int:
    """Left edge of layer `layer` (1-based); layer 0 is the input."""
    return LEFT + layer * (BOX + GAP)


def svg() -> str:
    """The diagram as SVG text (deterministic: the same bytes every run)."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, sans-serif" '
        'style="white-space:pre">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        "<defs>",
        '<marker id="a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="16" '
        'markerHeight="16" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker>',
        "</defs>",
        # The heading: N = 16, √N = 4 (symbols read the same in every language).
        f'<text x="{WIDTH // 2}" y="56" font-size="34" text-anchor="middle" fill="{INK}">'
        f"N = {N}    ·    √N = {SEGMENT}</text>",
    ]
    # Forward pass above the chain (f →), backward pass below it (← ∇).
    y_forward, y_backward = TOP - 46, TOP + BOX + 128
    parts.append(
        f'<line x1="{_x(0)}" y1="{y_forward}" x2="{_x(N) + BOX}" y2="{y_forward}" '
        f'stroke="{INK}" stroke-width="3" marker-end="url(#a)"/>'
    )
    parts.append(
        f'<text x="{_x(0) - 16}" y="{y_forward + 10}" font-size="30" text-anchor="end" '
        f'fill="{INK}" font-style="italic">f</text>'
    )
    parts.append(
        f'<line x1="{_x(N) + BOX}" y1="{y_backward}" x2="{_x(0)}" y2="{y_backward}" '
        f'stroke="{INK}" stroke-width="3" marker-end="url(#a)"/>'
    )
    parts.append(
        f'<text x="{_x(0) - 16}" y="{y_backward + 11}" font-size="30" text-anchor="end" '
        f'fill="{INK}">∇</text>'
    )
    # The input x (always kept), then the layers: a checkpoint every SEGMENT layers is kept
    # (solid blue); the others are dropped after the forward pass (pale, dashed).
    # The segment being rebuilt during the backward pass: layers 9..11, recomputed from the
    # checkpoint at 8 when the gradients reach layer 12's input (about √N layers at a time).
    first, last = 2 * SEGMENT + 1, 3 * SEGMENT - 1
    for layer in range(N + 1):
        x = _x(layer)
        kept = layer % SEGMENT == 0
        fill = KEPT if kept else REBUILT if first <= layer <= last else DROPPED
        dash = "" if kept else ' stroke-dasharray="6 4"'
        parts.append(
            f'<rect x="{x}" y="{TOP}" width="{BOX}" height="{BOX}" rx="8" fill="{fill}" '
            f'stroke="{INK}" stroke-width="2"{dash}/>'
        )
        label = "x" if layer == 0 else str(layer)
        colour = "#ffffff" if kept else INK
        style = ' font-style="italic"' if layer == 0 else ""
        parts.append(
            f'<text x="{x + BOX // 2}" y="{TOP + BOX // 2 + 10}" font-size="26" '
            f'text-anchor="middle" fill="{colour}"{style}>{label}</text>'
        )
    left, right = _x(first), _x(last) + BOX
    parts.append(
        f'<rect x="{left - 6}" y="{TOP - 6}" width="{right - left + 12}" height="{BOX + 12}" '
        f'rx="12" fill="none" stroke="{REBUILT}" stroke-width="5"/>'
    )
    y_brace = TOP + BOX + 24
    parts.append(
        f'<path d="M{left},{y_brace} v12 H{right} v-12" fill="none" stroke="{REBUILT}" '
        f'stroke-width="4"/>'
    )
    # The recomputation starts from the checkpoint before the segment: a curved arrow 8 → 9..11.
    start = _x(2 * SEGMENT) + BOX // 2
    parts.append(
        f'<path d="M{start},{TOP - 8} C{start},{TOP - 30} {left + 22},{TOP - 30} '
        f'{left + 22},{TOP - 9}" fill="none" stroke="{REBUILT}" stroke-width="3" '
        f'marker-end="url(#a)"/>'
    )
    parts.append(
        f'<text x="{(left + right) // 2}" y="{y_brace + 52}" font-size="30" '
        f'text-anchor="middle" fill="{INK}">↻</text>'
    )
    # No total on the picture: the question asks for it (the explanation gives it).
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def render(svg_path: Path, png_path: Path) -> None:
    """Screenshot the SVG with headless Chromium, at exactly the SVG's size."""
    chromium = (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )
    if chromium is None:
        sys.exit("chromium not found: apt-get install chromium (or set CHROMIUM)")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                f"--window-size={WIDTH},{HEIGHT}",
                f"--screenshot={png_path}",
                svg_path.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg-only", action="store_true", help="write the SVG, do not render")
    args = parser.parse_args()
    svg_path, png_path = OUT.with_suffix(".svg"), OUT.with_suffix(".png")
    svg_path.parent.mkdir(parents=True, exist_ok=True)
    svg_path.write_text(svg(), encoding="utf-8")
    print(f"wrote {svg_path.relative_to(ROOT)}")
    if not args.svg_only:
        render(svg_path, png_path)
        print(f"wrote {png_path.relative_to(ROOT)} ({png_path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
