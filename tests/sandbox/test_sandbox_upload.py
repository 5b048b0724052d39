"""`:upload PATH` sends a local file as a document with /upload, where the person is."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.uploads_kit import GOOD_YAML
from tests.sandbox.driver import Sandbox


def test_upload_sends_a_local_file_and_names_a_missing_one(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    quiz = tmp_path / "quiz.yaml"
    quiz.write_text(GOOD_YAML, encoding="utf-8")
    sandbox.prompt()
    sandbox.type(":group")
    missing = sandbox.type(f":upload {tmp_path / 'nothing.gift'}")
    assert "no file at" in missing and "nothing.gift" in missing
    sent = sandbox.type(f":upload {quiz}")
    assert f"You send quiz.yaml ({quiz.stat().st_size} bytes) with /upload" in sent
    assert "quiz.yaml is a sound quiz." in sent
    assert "Traceback" not in sent
    assert ":upload PATH" in sandbox.type(":help")
