"""The store's SQL, written for SQLite, as PostgreSQL runs it."""

from __future__ import annotations

import asyncpg
import pytest

from bot.store.pg.dialect import to_postgres


@pytest.mark.parametrize(
    ("sqlite", "postgres"),
    [
        ("SELECT * FROM users WHERE id = ?", "SELECT * FROM users WHERE id = $1"),
        ("UPDATE t SET a = ?, b = ? WHERE c = ?", "UPDATE t SET a = $1, b = $2 WHERE c = $3"),
        ("SELECT '?', \"a?\" FROM t WHERE x = ? -- what?\n AND y = ?",
         "SELECT '?', \"a?\" FROM t WHERE x = $1 -- what?\n AND y = $2"),
        ("SELECT 'it''s ?' WHERE a = ?", "SELECT 'it''s ?' WHERE a = $1"),
        ("INSERT OR IGNORE INTO n (a, b) VALUES (?, ?)",
         "INSERT INTO n (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING"),
        ("insert or ignore into n (a) values (?) RETURNING a",
         "INSERT INTO n (a) values ($1) ON CONFLICT DO NOTHING RETURNING a"),
        ("INSERT OR IGNORE INTO n (a) SELECT 'returning' FROM m;",
         "INSERT INTO n (a) SELECT 'returning' FROM m ON CONFLICT DO NOTHING"),
    ],
)  # fmt: skip
def test_translation(sqlite: str, postgres: str) -> None:
    assert to_postgres(sqlite) == postgres


async def test_sqlite_functions_the_store_uses_exist(pg_pool: asyncpg.Pool) -> None:
    row = await pg_pool.fetchrow(
        "SELECT max(x, 3), min(x, 3), max(y, 0.5) FROM (VALUES (5, 1.5::float8)) AS t (x, y)"
    )
    assert row is not None and tuple(row) == (5, 3, 1.5)
    values = "(VALUES ('finished'), ('active'), ('finished')) AS t (status)"
    assert await pg_pool.fetchval(f"SELECT sum(status = 'finished') FROM {values}") == 2
    assert await pg_pool.fetchval("SELECT sum(x = 1) FROM (SELECT 1 WHERE false) AS t (x)") is None
    assert await pg_pool.fetchval("SELECT max(x) FROM (VALUES (1), (4)) AS t (x)") == 4


@pytest.mark.parametrize(
    ("sqlite", "postgres"),
    [
        ("SELECT a WHERE u = ?1 AND t >= ?2 UNION SELECT b WHERE u = ?1",
         "SELECT a WHERE u = $1 AND t >= $2 UNION SELECT b WHERE u = $1"),
        ("SELECT ?2, ?, ?1", "SELECT $2, $3, $1"),  # a bare ? follows the largest number so far
        ("SELECT '?1' WHERE a = ?1", "SELECT '?1' WHERE a = $1"),
    ],
)  # fmt: skip
def test_numbered_parameters(sqlite: str, postgres: str) -> None:
    assert to_postgres(sqlite) == postgres
