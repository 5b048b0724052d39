"""Time `load_catalog` on generated content: `python -m bot.bench.startup_timing [--runs 5]`.

Each run is a fresh interpreter (imports not counted), so the figures are what a bot start
pays; the median is printed for a plain load and for a load that hits the start-up cache.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_ONE_RUN = """
import sys, time
from pathlib import Path
from bot.content import load_catalog
cache_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else None
start = time.perf_counter()
load_catalog(Path(sys.argv[1]), cache_dir)
print(time.perf_counter() - start)
"""


def _median(args: list[str], runs: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _ONE_RUN, *args], capture_output=True, text=True, check=True
        )
        times.append(float(out.stdout))
    return statistics.median(times), times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.startup_timing")
    parser.add_argument("--quizzes", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    from bot.bench.content_gen import generate

    with tempfile.TemporaryDirectory() as tmp:
        content, cache_dir = generate(Path(tmp) / "content", args.quizzes), Path(tmp) / "cache"
        _median([str(content), str(cache_dir)], 1)  # fills the cache
        for label, extra in (("no cache", []), ("cache hit", [str(cache_dir)])):
            median, times = _median([str(content), *extra], args.runs)
            shown = ", ".join(f"{t:.2f}" for t in times)
            what = f"load_catalog, {args.quizzes} quizzes (en+fr), {label}"
            print(f"{what}: {median:.2f} s ({shown})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
