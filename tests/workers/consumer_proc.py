"""A worker process for tests: records each update it handles, and hangs on one marked `hang`.

python -m tests.workers.consumer_proc DSN NAME LEASE
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import asyncpg

from bot.workers.consumer import Consumer


async def main(dsn: str, name: str, lease: float) -> None:
    pool = await asyncpg.create_pool(dsn, min_size=2, max_size=6)

    async def handle(payload: str) -> None:
        update = json.loads(payload)
        await pool.execute(
            "INSERT INTO seen (update_id, worker) VALUES ($1, $2)", update["update_id"], name
        )
        if update.get("hang"):
            await asyncio.Event().wait()  # until SIGKILL

    consumer = Consumer(pool, name, handle, clock=time.time, lease=lease, poll=0.1)
    await consumer.start()
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
