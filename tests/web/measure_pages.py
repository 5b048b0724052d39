"""Time the dashboard's pages over HTTP: `python -m tests.web.measure_pages`.

Not a test (timings are never asserted): it builds the dashboard tests' world with the real bot
through the emulator (a learner, a group run, a schedule), serves the dashboard beside the bot,
and requests each page 200 times with a valid initData, printing the median, the 90th percentile
and the size of what a phone downloads for the page's content.
"""

from __future__ import annotations

import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.web.scenario import AWA, GROUP, NDEYE, QUIZ, Served

REQUESTS = 200


def main() -> None:
    world = Served(Path(tempfile.mkdtemp()))
    world.start()
    try:
        pages = [
            ("learner", "/api/view", AWA),
            ("group admin", f"/api/view?view=group&chat={GROUP}", NDEYE),
            ("content preview", f"/api/view?view=preview&quiz={QUIZ}", AWA),
        ]
        for name, path, user in pages:
            headers = {"Authorization": f"tma {world.init_data(user)}"}
            times, size = [], 0
            for _ in range(REQUESTS):
                began = time.perf_counter()
                request = urllib.request.Request(world.url + path, headers=headers)
                with urllib.request.urlopen(request) as response:
                    size = len(response.read())
                times.append((time.perf_counter() - began) * 1000)
            times.sort()
            p90 = times[int(len(times) * 0.9)]
            print(f"{name:16} median {statistics.median(times):5.1f} ms  p90 {p90:5.1f} ms  "
                  f"{size / 1024:4.1f} KiB")  # fmt: skip
    finally:
        world.stop()


if __name__ == "__main__":
    main()
