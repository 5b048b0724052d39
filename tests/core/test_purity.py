"""The core imports nothing from Telegram, SQL, YAML or gettext; imports go one way."""

from __future__ import annotations

import ast
import re
import sys
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


# Libraries the core may import besides the standard library: pure computation, no I/O, no
# clock of their own once given the time. fsrs: the review scheduler (bot/core/review.py passes
# every time and card id, fuzzing off, so it is deterministic).
PURE_LIBRARIES = {"fsrs"}


@pytest.mark.parametrize("path", sorted((BOT / "core").rglob("*.py")), ids=lambda p: p.name)
def test_core_imports_only_the_standard_library_and_pure_libraries(path: Path) -> None:
    roots = {r.split(".")[0] for r in imported_roots(path)}
    outside = roots - set(sys.stdlib_module_names) - {"bot"}
    assert outside <= PURE_LIBRARIES, f"{path.name} imports {outside - PURE_LIBRARIES}"


def test_the_pure_libraries_do_no_io() -> None:
    """What 'pure' means for fsrs's scheduler: its modules import no network, file or process
    module (its optimizer, which needs torch, is a separate module the core never imports)."""
    import fsrs

    folder = Path(fsrs.__file__).parent
    io = {"socket", "urllib", "http", "subprocess", "os", "pathlib", "shutil", "requests"}
    for name in ("card", "rating", "review_log", "scheduler", "state"):
        roots = {r.split(".")[0] for r in imported_roots(folder / f"{name}.py")}
        assert not roots & io, (name, roots & io)


def test_only_the_adapter_imports_telegram() -> None:
    offenders = [
        p.relative_to(BOT)
        for p in BOT.rglob("*.py")
        if "telegram" in {r.split(".")[0] for r in imported_roots(p)}
        and p.relative_to(BOT).parts[0] not in {"tg", "bench"}
    ]
    assert not offenders


# -- the layers around the core ---------------------------------------------------------------

SQL_DRIVERS = {"aiosqlite", "sqlite3"}
# Tools that measure or emulate rather than make up the bot: the benchmark reads its databases
# and runs a bare PTB bot for comparison; the emulator is a Bot API server.
TOOLS = {"bench", "emulator"}
# A file format, not the bot's database: an Anki deck's collection is a SQLite file, read from a
# private read-only copy under an authorizer that allows SELECT only, and written by genanki into
# a temporary file (see those modules). No other module may open SQLite outside the store.
FOREIGN_SQLITE = {
    Path("content/formats/anki_collection.py"),
    Path("content/formats/anki_export.py"),
}
SQL_START = re.compile(
    r"\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT)\s"
)


def modules(*, outside: set[str]) -> list[Path]:
    return [p for p in sorted(BOT.rglob("*.py")) if p.relative_to(BOT).parts[0] not in outside]


def sql_literals(path: Path) -> list[str]:
    """String constants that read as SQL statements (the constant parts of f-strings too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        # Our SQL starts with a keyword in capitals; prose does not ("Select a quiz"). Any
        # such start counts: `SELECT 1`, with no FROM, once passed a narrower scan.
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and SQL_START.match(node.value)
        ):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_sql_lives_only_in_the_store() -> None:
    outside = [
        p for p in modules(outside={"store"} | TOOLS) if p.relative_to(BOT) not in FOREIGN_SQLITE
    ]
    drivers = [
        p.relative_to(BOT)
        for p in outside
        if {r.split(".")[0] for r in imported_roots(p)} & SQL_DRIVERS
    ]
    assert drivers == []
    assert [hit for p in outside for hit in sql_literals(p)] == []


def test_the_sql_scan_sees_sql(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('Q = "SELECT id FROM users"\nW = f"UPDATE groups SET x = 1 WHERE {c}"\n'
                   'P = "SELECT 1"\nOK = "Select a quiz from the list"\n')  # fmt: skip
    assert len(sql_literals(bad)) == 3  # prose is not SQL


@pytest.mark.parametrize("path", sorted((BOT / "usecases").rglob("*.py")), ids=lambda p: p.name)
def test_use_cases_never_import_the_adapter(path: Path) -> None:
    roots = imported_roots(path)
    bad = {r for r in roots if r.split(".")[0] in {"telegram", "aiosqlite", "sqlite3"}}
    bad |= {r for r in roots if r == "bot.tg" or r.startswith("bot.tg.")}
    assert not bad, f"{path.name} imports {bad}"


def test_only_the_adapter_and_the_entry_points_import_the_adapter() -> None:
    """`bot/tg` is reached from the outside only by what starts a bot."""
    starters = {"cli", "sandbox", "bench", "tg"}
    offenders = [
        p.relative_to(BOT)
        for p in BOT.rglob("*.py")
        if any(r == "bot.tg" or r.startswith("bot.tg.") for r in imported_roots(p))
        and p.relative_to(BOT).parts[0] not in starters
    ]
    assert not offenders


def test_no_two_modules_share_a_name_across_layers() -> None:
    """A name says what a module holds: four files called progress.py said nothing."""
    seen: dict[str, list[Path]] = {}
    for p in modules(outside=TOOLS | {"sandbox", "content", "cli"}):
        if p.name not in {"__init__.py", "__main__.py", "cli.py"}:
            seen.setdefault(p.name, []).append(p.relative_to(BOT))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}
