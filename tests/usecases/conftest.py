"""Every test here that takes `db` runs on SQLite and on PostgreSQL (tests/pgserver.py)."""

from __future__ import annotations

from tests.pgserver import db_on_both_engines, engine

__all__ = ["db_on_both_engines", "engine"]
