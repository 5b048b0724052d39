"""Test modules are not fixture libraries: no module under `tests/` imports a `test_*.py` module,
and no read of the store is written in two end-to-end test files.

A helper another file needs lives in a support module (`tests/e2e/harness.py`, `*_kit.py`), so a
test file can be moved, split or deleted without breaking tests elsewhere, and importing one test
file never drags its fixtures and constants into another. Read with `ast`; nothing is imported.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _is_test_module(dotted: str) -> bool:
    """Ours only: `aiohttp.test_utils` is a library's public module, not a test file."""
    return dotted.startswith("tests.") and dotted.rsplit(".", 1)[-1].startswith("test_")


def imports_of_test_modules(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Every (line, module) in `path` that imports a test module, however it is spelled."""
    package = list(path.relative_to(root).parent.parts)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if _is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this file's package
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if _is_test_module(module):
                found.append((node.lineno, module))
            # `from tests.e2e import test_groups` names the module itself
            named = [f"{module}.{a.name}" for a in node.names]
            found += [(node.lineno, name) for name in named if _is_test_module(name)]
    return found


def test_no_module_under_tests_imports_a_test_module() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, module in imports_of_test_modules(path)
    ]
    assert offenders == [], "\n".join(offenders)


def test_the_scan_sees_every_spelling(tmp_path: Path) -> None:
    """The guard itself can fail: each way of naming a test module is caught."""
    package = tmp_path / "tests" / "e2e"
    package.mkdir(parents=True)
    sample = package / "groups_kit.py"
    sample.write_text(
        "import tests.e2e.test_groups\n"
        "from tests.e2e.test_groups import QUIZ\n"
        "from tests.e2e import test_groups\n"
        "from .test_groups import QUIZ\n"
        "from . import test_groups as g\n"
        "from tests.e2e.harness import Harness\n"
        "from tests.e2e import harness\n",
        encoding="utf-8",
    )
    found = imports_of_test_modules(sample, root=tmp_path)
    assert [line for line, _ in found] == [1, 2, 3, 4, 5]
    assert {module for _, module in found} == {"tests.e2e.test_groups"}


SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b")


def sql_in(path: Path) -> set[str]:
    """The SQL string literals of a file, whitespace folded and number literals as `?`."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value):
            found.add(re.sub(r"(= |< |>= )-?\d+\b", r"\1?", " ".join(node.value.split())))
    return found


def shared_sql(paths: list[Path]) -> dict[str, list[str]]:
    """SQL written in more than one of `paths`: each, with the files that write it."""
    where: dict[str, list[str]] = {}
    for path in paths:
        for sql in sql_in(path):
            where.setdefault(sql, []).append(path.name)
    return {sql: files for sql, files in where.items() if len(files) > 1}


def test_no_two_e2e_test_files_write_the_same_read() -> None:
    """A read the end-to-end tests ask in two files is named once in tests/e2e/reads.py."""
    shared = shared_sql(sorted((TESTS / "e2e").glob("test_*.py")))
    assert shared == {}, "move these to tests/e2e/reads.py:\n" + "\n".join(
        f"{sql}  ({', '.join(files)})" for sql, files in shared.items()
    )


def test_the_sql_scan_sees_a_read_written_twice(tmp_path: Path) -> None:
    one, two = tmp_path / "test_one.py", tmp_path / "test_two.py"
    one.write_text('rows = h.rows("SELECT count(*) FROM answers WHERE user_id = 7")\n')
    two.write_text('rows = h.rows("""SELECT count(*)\n  FROM answers WHERE user_id = 8""")\n')
    assert shared_sql([one, two]) == {
        "SELECT count(*) FROM answers WHERE user_id = ?": ["test_one.py", "test_two.py"]
    }
