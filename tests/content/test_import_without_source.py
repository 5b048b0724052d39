"""A teacher's file in French when the content has no English quiz yet: the import writes the
French text as the source "for now" (content/README.md), and must not refuse its true/false
questions for carrying French labels that the file never wrote (GIFT's `{T}` has no words)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from bot.cli.content import main
from bot.content import check, format_report

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_french_gift_file_with_true_false_is_written_as_the_source_for_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(FIXTURES / "valid" / "guides.yaml", content / "guides.yaml")
    source = FIXTURES / "formats" / "revision-fr.gift"
    status = main(
        ["import", str(source), "--format", "gift", "--lang", "fr", "--out", str(content)]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "no English source" in out
    written = yaml.safe_load((content / "quizzes" / "revision.yaml").read_text(encoding="utf-8"))
    assert written["questions"]["vf"]["answer"] == "true"
    assert written["questions"]["vf"]["prompt"] == "Adam est un optimiseur."
    report = check(content)
    assert report.errors == [], format_report(report)
