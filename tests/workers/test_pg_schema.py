"""The PostgreSQL migrations build what the SQLite ones build, and enforce the same rules."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.store import Database
from bot.store.db import migrations as sqlite_migrations
from bot.store.pg import schema
from bot.store.pg.cluster import Cluster
from tests.pgserver import new_database

# SQLite's declared types and the PostgreSQL types their twins use.
SAME_TYPE = {
    "INTEGER": {"integer", "bigint"},
    "REAL": {"double precision"},
    "TEXT": {"text"},
}


def test_every_sqlite_migration_has_a_postgresql_twin() -> None:
    sqlite = [name for _, name, _ in sqlite_migrations()]
    pg = [name for _, name, _ in schema.migrations(schema.STORE)]
    missing = sorted(set(sqlite) - set(pg))
    assert not missing, f"write bot/store/migrations_pg/{missing[0]} (the PostgreSQL twin)"
    assert sqlite == pg


async def _sqlite_schema(tmp_path: Path) -> dict[str, object]:
    db = Database(tmp_path / "q.sqlite3")
    await db.open()
    await db.close()
    conn = sqlite3.connect(tmp_path / "q.sqlite3")
    try:
        tables: dict[str, object] = {}
        indexes: dict[str, object] = {}
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        for table in names:
            info = conn.execute(f"PRAGMA table_info({table})").fetchall()
            columns = {
                name: (decl.upper(), bool(notnull) or pk > 0)
                for _, name, decl, notnull, _, pk in info
            }
            pk = tuple(r[1] for r in sorted(info, key=lambda r: r[5]) if r[5])
            tables[table] = (columns, pk)
            for _, index, unique, origin, partial in conn.execute(f"PRAGMA index_list({table})"):
                if origin == "pk":
                    continue
                cols = tuple(r[2] for r in conn.execute(f"PRAGMA index_info({index})"))
                key = index if origin == "c" else f"{table}:unique{cols}"
                indexes[key] = (table, cols, bool(unique), bool(partial))
        triggers = {
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
    finally:
        conn.close()
    return {"tables": tables, "indexes": indexes, "triggers": triggers}


async def _pg_schema(dsn: str) -> dict[str, object]:
    conn = await asyncpg.connect(dsn)
    try:
        tables: dict[str, object] = {}
        rows = await conn.fetch(
            """SELECT table_name, column_name, data_type, is_nullable
               FROM information_schema.columns
               WHERE table_schema = 'public' AND table_name NOT LIKE 'work\\_%'
                 AND table_name <> 'quizbot_schema'"""
        )
        pks = await conn.fetch(
            """SELECT c.relname AS table, i.indexrelid::regclass::text AS index,
                      i.indisprimary AS primary, i.indisunique AS unique,
                      i.indpred IS NOT NULL AS partial,
                      array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(n, pos)
                            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.n
                            ORDER BY k.pos) AS columns,
                      con.contype::text AS constraint
               FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
               JOIN pg_namespace ns ON ns.oid = c.relnamespace
               LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid
               WHERE ns.nspname = 'public' AND c.relname NOT LIKE 'work\\_%'
                 AND c.relname <> 'quizbot_schema'"""
        )
        for r in rows:
            columns, _ = tables.setdefault(r["table_name"], ({}, ()))  # type: ignore[misc]
            columns[r["column_name"]] = (r["data_type"], r["is_nullable"] == "NO")
        indexes: dict[str, object] = {}
        for r in pks:
            cols = tuple(r["columns"])
            if r["primary"]:
                columns, _ = tables[r["table"]]  # type: ignore[misc]
                tables[r["table"]] = (columns, cols)
            elif r["constraint"] == "u":
                indexes[f"{r['table']}:unique{cols}"] = (r["table"], cols, True, False)
            else:
                indexes[r["index"]] = (r["table"], cols, r["unique"], r["partial"])
        triggers = {
            r[0] for r in await conn.fetch("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        }
    finally:
        await conn.close()
    return {"tables": tables, "indexes": indexes, "triggers": triggers}


async def test_both_engines_build_the_same_schema(tmp_path: Path, pg_dsn: str) -> None:
    lite, pg = await _sqlite_schema(tmp_path), await _pg_schema(pg_dsn)
    assert set(pg["tables"]) == set(lite["tables"])  # type: ignore[arg-type]
    for table, (columns, pk) in lite["tables"].items():  # type: ignore[attr-defined]
        pg_columns, pg_pk = pg["tables"][table]  # type: ignore[index]
        assert pg_pk == pk, table
        assert set(pg_columns) == set(columns), table
        for name, (decl, notnull) in columns.items():
            pg_type, pg_notnull = pg_columns[name]
            assert pg_type in SAME_TYPE[decl], (table, name, decl, pg_type)
            assert pg_notnull == notnull, (table, name)
    assert pg["indexes"] == lite["indexes"]
    assert pg["triggers"] == lite["triggers"]


async def test_one_answer_per_person_per_question_per_attempt(pg_pool: asyncpg.Pool) -> None:
    attempt = await pg_pool.fetchval(
        """INSERT INTO attempts (kind, chat_id, user_id, quiz_id, option_orders, started_at)
           VALUES ('private', 7, 7, 'q', '[[0, 1], [1, 0]]', 0) RETURNING id"""
    )
    insert = """INSERT INTO answers (attempt_id, question_index, user_id, option_index,
                                     is_correct, answered_at) VALUES ($1, 0, 7, $2, 0, 0)"""
    await pg_pool.execute(insert, attempt, 1)
    with pytest.raises(asyncpg.UniqueViolationError):
        await pg_pool.execute(insert, attempt, 2)
    # The trigger fed the review inbox once, as on SQLite.
    assert await pg_pool.fetchval("SELECT count(*) FROM review_inbox") == 1
    with pytest.raises(asyncpg.UniqueViolationError):  # one active private attempt per learner
        await pg_pool.execute(
            """INSERT INTO attempts (kind, chat_id, user_id, quiz_id, option_orders, started_at)
               VALUES ('private', 7, 7, 'other', '[]', 0)"""
        )


async def test_workers_starting_together_migrate_once(pg_cluster: Cluster) -> None:
    dsn = await new_database(pg_cluster, migrated=False)
    conns = [await asyncpg.connect(dsn) for _ in range(3)]
    try:
        await asyncio.gather(*(schema.migrate(c) for c in conns))
        latest = schema.migrations(schema.STORE)[-1][0]
        assert await schema.version(conns[0], schema.STORE) == latest
    finally:
        for c in conns:
            await c.close()


async def test_a_newer_database_is_refused(pg_dsn: str) -> None:
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute("UPDATE quizbot_schema SET version = 999 WHERE part = 'store'")
        with pytest.raises(schema.SchemaError, match="newer than this quizbot"):
            await schema.migrate(conn)
    finally:
        await conn.close()
