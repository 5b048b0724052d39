"""The end-to-end tests chosen to run on PostgreSQL too (tests/e2e/conftest.py) still exist:
a renamed test would otherwise quietly run on SQLite only."""

from __future__ import annotations

import importlib
import inspect

from tests.e2e.conftest import ALL, ON_BOTH_ENGINES


def test_every_test_chosen_for_both_engines_exists() -> None:
    missing = []
    for module_name, tests in ON_BOTH_ENGINES.items():
        module = importlib.import_module(f"tests.e2e.{module_name}")
        if tests == ALL:
            continue
        missing += [
            f"{module_name}::{name}"
            for name in sorted(tests)
            if not inspect.iscoroutinefunction(getattr(module, name, None))
        ]
    assert not missing, missing
