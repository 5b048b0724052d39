"""Both engines offer the one store interface (bot/store/interface.py).

mypy holds the signatures (the assignments at the end of interface.py, and every `Engine`
annotation); this holds at run time that each engine, opened, has every member of the
Protocol, with coroutines where the Protocol has coroutines, and answers a read.
"""

from __future__ import annotations

import inspect
from typing import Any

from bot.store.interface import Engine, Reading


def members(protocol: type) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for klass in reversed(protocol.__mro__):
        if klass in (Engine, Reading):
            found |= {k: v for k, v in vars(klass).items() if not k.startswith("_")}
    return found


async def test_each_engine_has_every_member_of_the_interface(db: Any) -> None:
    expected = members(Engine)
    assert {"reader", "open", "close", "write", "write_answer", "forget_cached"} <= set(expected)
    for name, member in expected.items():
        assert hasattr(db, name), f"{type(db).__name__} lacks {name}"
        if inspect.iscoroutinefunction(member):
            assert inspect.iscoroutinefunction(getattr(db, name)), name


async def test_a_read_and_a_write_through_the_interface(db: Any) -> None:
    engine: Engine = db

    async def count(conn: Any) -> int:
        async with conn.execute("SELECT count(*) FROM users") as cur:
            row = await cur.fetchone()
        return int(row[0])

    written = await engine.write(count)
    async with engine.reader.execute("SELECT count(*) FROM users", ()) as cur:
        [row] = await cur.fetchall()
    assert int(row[0]) == written
