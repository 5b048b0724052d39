"""Copy a SQLite deployment into an empty PostgreSQL database (`quizbot migrate-db`).

Both sides are first brought to the latest schema by the code that would run them, so their
tables are the same (tests/workers/test_pg_schema.py holds the twins equal). Then every table is
copied in creation order (a table comes after those it refers to) with PostgreSQL's COPY, in
ONE transaction: the target ends up with everything or nothing. Triggers are off meanwhile: the
rows they would derive (the review inbox) are copied as they are. Identity counters continue
after the largest copied id, and the row counts are compared before the commit.

The bot must be stopped while it runs: the copy reads one SQLite snapshot, and answers written
after it would stay behind.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot.store.db import Database
from bot.store.pg import schema
from bot.store.pg.database import PgDatabase

CHUNK = 5_000  # rows per COPY: bounded memory for any table size


class CopyError(RuntimeError):
    """The copy cannot be made (target not empty, versions differ); nothing was written."""


def _tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        """SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           ORDER BY rowid"""
    )
    return [str(r[0]) for r in rows]


async def copy_sqlite_to_postgres(
    source: Path, dsn: str, say: Callable[[str], None] = lambda line: None
) -> dict[str, int]:
    """Copy every table of the SQLite file `source` into the empty database at `dsn`."""
    if not source.is_file():
        raise CopyError(f"{source}: no such SQLite file")
    lite = Database(source)
    await lite.open()  # brings the file to the latest schema, as `quizbot run` would
    await lite.close()
    target = PgDatabase(dsn)
    await target.open()
    conn = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        conn.execute("BEGIN")  # one snapshot for the whole copy
        lite_version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        async with target.pool.acquire() as pg, pg.transaction():
            pg_version = await schema.version(pg, schema.STORE)
            if pg_version != lite_version:
                raise CopyError(f"schema versions differ: SQLite {lite_version}, PG {pg_version}")
            tables = _tables(conn)
            for table in tables:
                if await pg.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
                    raise CopyError(f"the target database is not empty (table {table})")
            counts: dict[str, int] = {}
            for table in tables:
                await pg.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')
                columns = [str(r[1]) for r in conn.execute(f'PRAGMA table_info("{table}")')]
                names = ", ".join(f'"{c}"' for c in columns)
                cursor = conn.execute(f'SELECT {names} FROM "{table}"')
                counts[table] = 0
                while chunk := cursor.fetchmany(CHUNK):
                    await pg.copy_records_to_table(table, records=chunk, columns=columns)
                    counts[table] += len(chunk)
                await pg.execute(f'ALTER TABLE "{table}" ENABLE TRIGGER USER')
                copied = await pg.fetchval(f'SELECT count(*) FROM "{table}"')
                if copied != counts[table]:
                    raise CopyError(f"{table}: {counts[table]} rows read, {copied} in the target")
                say(f"{table}: {counts[table]} rows")
            await _continue_identities(pg, tables)
    finally:
        conn.close()
        await target.close()
    return counts


async def _continue_identities(pg: schema.Conn, tables: list[str]) -> None:
    """Ids generated after the copy start above the largest copied one."""
    rows = await pg.fetch(
        """SELECT c.relname AS table, a.attname AS column FROM pg_attribute a
           JOIN pg_class c ON c.oid = a.attrelid
           WHERE a.attidentity <> '' AND c.relname = ANY($1::text[])""",
        tables,
    )
    for row in rows:
        table, column = row["table"], row["column"]
        await pg.execute(
            f"""SELECT setval(pg_get_serial_sequence('"{table}"', '{column}'),
                              coalesce(max("{column}"), 0) + 1, false) FROM "{table}" """
        )
