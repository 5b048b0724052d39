"""Where the bot looks for content when no path is given."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.content import default_content_dir
from bot.content.sources import CONTENT_DIR_ENV, PACKAGE_ROOT


def test_env_var_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONTENT_DIR_ENV, str(tmp_path / "elsewhere"))
    assert default_content_dir() == tmp_path / "elsewhere"


def test_current_directory_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONTENT_DIR_ENV, raising=False)
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    assert default_content_dir() == Path("content")


def test_then_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONTENT_DIR_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    assert default_content_dir() == PACKAGE_ROOT / "content"
    assert (default_content_dir() / "guides.yaml").is_file()
