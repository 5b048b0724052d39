"""The emulator's own ceiling: a raw HTTP client (no PTB) sending sendMessage as fast as it can.

Run in its own process (`python -m bot.bench.rawclient URL CHAT SECONDS CONCURRENCY`) so that it
competes with the emulator for CPU exactly as a bot process does; prints requests per second.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import aiohttp


async def _hammer(url: str, chat_id: int, seconds: float, concurrency: int) -> float:
    done = 0
    until = time.perf_counter() + seconds
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            nonlocal done
            while time.perf_counter() < until:
                async with session.post(
                    f"{url}/sendMessage",
                    data={"chat_id": str(chat_id), "text": "<b>ping</b>", "parse_mode": "HTML"},
                ) as response:
                    await response.read()
                    done += response.status == 200

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return done / (time.perf_counter() - start)


def main(argv: list[str]) -> int:
    url, chat_id, seconds, concurrency = argv[0], int(argv[1]), float(argv[2]), int(argv[3])
    rate = asyncio.run(_hammer(url, chat_id, seconds, concurrency))
    print(json.dumps({"requests_per_s": rate}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
