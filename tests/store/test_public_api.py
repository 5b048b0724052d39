"""The store uses aiosqlite through its public API only, so any release of it will do."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Private members of aiosqlite's Connection and Cursor (our own `self._conn` is fine).
PRIVATE = re.compile(r"(?<!self)\.(_execute|_conn|_connection|_tx|_cursor|_running)\b")


def test_no_private_aiosqlite_attributes_in_the_bot() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert not offenders, "\n".join(offenders)


def test_aiosqlite_is_not_pinned_below_a_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    [spec] = [d for d in project["dependencies"] if d.startswith("aiosqlite")]
    assert "<" not in spec, spec
