"""`ContentGeneration`: which content the workers serve, one number they all follow.

A reload asked of one worker (an owner's /reload) or beside them (`quizbot content reload` with
QUIZBOT_DB on PostgreSQL) moves the number once the new content has been checked; every worker
compares it with its own every few seconds (bot/tg/served_content.py) and reloads its own files
when it moved. A row, not a NOTIFY: a worker that was not listening (restarting, its connection
cut) still finds the number moved on its next look, and a worker started later loads the files
anyway.
"""

from __future__ import annotations

from typing import Any

import asyncpg


class ContentGeneration:
    def __init__(self, pool: asyncpg.Pool | asyncpg.Connection[Any]) -> None:
        self.pool = pool

    async def current(self) -> int:
        """The generation every worker should serve."""
        value = await self.pool.fetchval("SELECT generation FROM work_content")
        return int(value or 0)

    async def advance(self) -> int:
        """New content was checked: every worker should reload; the new generation."""
        value = await self.pool.fetchval(
            """UPDATE work_content SET generation = generation + 1, reloaded_at = now()
               RETURNING generation"""
        )
        return int(value)
