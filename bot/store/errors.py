"""The store's own errors, raised alike by the SQLite and the PostgreSQL engine, so a store
module catches one type whatever the engine (PostgreSQL's once arrived dressed as sqlite3's)."""

from __future__ import annotations


class IntegrityError(Exception):
    """A statement broke a constraint: a duplicate key, a row it refers to that is gone, a
    check. Within a write function it can be caught (the statement changed nothing); see each
    engine for what the rest of that write may still do."""
