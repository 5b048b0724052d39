"""Where PostgreSQL is missing, the tests say how to get it instead of failing."""

from __future__ import annotations

import pytest

from bot.store.pg import cluster


def test_missing_binaries_are_explained(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("QUIZBOT_PG_BIN", str(tmp_path))  # an empty folder
    monkeypatch.setattr(cluster.shutil, "which", lambda name: None)
    monkeypatch.setattr(cluster.glob, "glob", lambda pattern: [])
    with pytest.raises(cluster.NoPostgres, match="apt-get install -y postgresql"):
        cluster.find_bindir()
