"""Test modules are not fixture libraries: no module under `tests/` imports a `test_*.py` module.

A helper another file needs lives in a support module (`tests/e2e/harness.py`, `*_kit.py`), so a
test file can be moved, split or deleted without breaking tests elsewhere, and importing one test
file never drags its fixtures and constants into another. Read with `ast`; nothing is imported.
"""

from __future__ import annotations

import ast
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
            found += [
                (node.lineno, f"{module}.{a.name}") for a in node.names if _is_test_module(a.name)
            ]
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
