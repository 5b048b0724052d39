"""pg_stat_statements for `quizbot bench scaling --profile`: each statement's round trips,
executing time and WAL per answered burst tap, and the private phase's top statements.

Round trips per tap, unlike taps/s, do not move with the machine's load: they are how a change
to the PostgreSQL path is judged on a busy 2-core machine (BENCHMARKS.md, issue 32).
"""

from __future__ import annotations

import asyncpg


async def reset_statements(dsn: str) -> None:
    """pg_stat_statements in this database, emptied: what follows is the measured load's."""
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        await conn.execute("SELECT pg_stat_statements_reset()")
    finally:
        await conn.close()


async def statements_per_tap(dsn: str, taps: int) -> list[str]:
    """Round trips per answered burst tap, by statement (pg_stat_statements since the last
    reset, which `reset_statements` did just before the burst), then emptied for the private
    phase. Unlike taps/s, the count does not move with the machine's load."""
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            """SELECT calls, rows, total_exec_time, wal_bytes, query FROM pg_stat_statements
               WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                 AND query NOT LIKE '%pg_stat_statements%'
               ORDER BY calls DESC"""
        )
        await conn.execute("SELECT pg_stat_statements_reset()")
    finally:
        await conn.close()
    taps = max(1, taps)
    total = sum(r["calls"] for r in rows)
    lines = [
        f"{total / taps:.2f} statements per answered burst tap ({total} for {taps} taps):",
        "| calls / tap | calls | rows | executing µs / tap | WAL bytes / tap | statement |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["calls"] / taps < 0.01:
            continue
        text = " ".join(r["query"].split())
        text = text if len(text) <= 110 else text[:107] + "..."
        lines.append(
            f"| {r['calls'] / taps:.2f} | {r['calls']} | {r['rows']}"
            f" | {1000 * r['total_exec_time'] / taps:.0f} | {int(r['wal_bytes']) / taps:.0f}"
            f" | `{text}` |"
        )
    return lines


async def top_statements(dsn: str, limit: int = 10) -> list[str]:
    """The statements that took most of the server's time, then the most frequent (each a
    round trip, whose cost is mostly outside its execution time): calls, ms, rows, text."""
    return [
        *await _top(dsn, "total_exec_time", limit),
        "",
        *await _top(dsn, "calls", limit),
    ]


async def _top(dsn: str, order: str, limit: int) -> list[str]:
    assert order in ("total_exec_time", "calls")
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            """SELECT calls, total_exec_time, rows, query FROM pg_stat_statements
               WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
               ORDER BY """
            + order
            + " DESC LIMIT $1",
            limit,
        )
    finally:
        await conn.close()
    lines = ["| calls | total ms | ms/call | rows | statement |", "|---|---|---|---|---|"]
    for r in rows:
        text = " ".join(r["query"].split())
        text = text if len(text) <= 110 else text[:107] + "..."
        per = r["total_exec_time"] / r["calls"] if r["calls"] else 0.0
        lines.append(
            f"| {r['calls']} | {r['total_exec_time']:.0f} | {per:.2f} | {r['rows']} | `{text}` |"
        )
    return lines
