"""The core imports nothing from Telegram, SQL, YAML or gettext; imports go one way."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
FORBIDDEN_IN_CORE = {"telegram", "aiosqlite", "sqlite3", "yaml", "gettext", "babel", "aiohttp"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module)
    return roots


@pytest.mark.parametrize("path", sorted((BOT / "core").rglob("*.py")), ids=lambda p: p.name)
def test_core_is_pure(path: Path) -> None:
    roots = imported_roots(path)
    bad = {r for r in roots if r.split(".")[0] in FORBIDDEN_IN_CORE}
    bad |= {r for r in roots if r.startswith("bot.") and not r.startswith("bot.core")}
    assert not bad, f"{path.name} imports {bad}"


def test_only_the_adapter_imports_telegram() -> None:
    offenders = [
        p.relative_to(BOT)
        for p in BOT.rglob("*.py")
        if "telegram" in {r.split(".")[0] for r in imported_roots(p)}
        and p.relative_to(BOT).parts[0] not in {"tg", "bench"}
    ]
    assert not offenders
