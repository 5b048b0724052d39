"""A translator's round trip through a spreadsheet: `export Q --format csv --lang fr`, edit in
Excel, `import ... --lang fr --id Q --force`. CSV carries single-choice questions only (a
true/false one as two options), so the import must put a true/false question back under its
`true`/`false` keys and keep, from the file it replaces, the questions CSV could not carry
(select-all, number), as it keeps a description or a unit (`translation_keep.py`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from bot.cli.content import main
from bot.content import check, format_report

SHIPPED = Path(__file__).resolve().parents[2] / "content"


@pytest.mark.parametrize("lang", ["fr", "wo"])
def test_a_translation_exported_to_csv_imports_back_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    quiz = "gradient-accumulation"
    target = content / "quizzes" / f"{quiz}.{lang}.yaml"
    before = yaml.safe_load(target.read_text(encoding="utf-8"))
    sheet = tmp_path / f"{quiz}.{lang}.csv"
    args = ["export", quiz, "--format", "csv", "--lang", lang, "--content", str(content)]
    assert main([*args, "--out", str(sheet)]) == 0
    status = main(["import", str(sheet), "--format", "csv", "--lang", lang, "--id", quiz,
                   "--force", "--out", str(content)])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    assert yaml.safe_load(target.read_text(encoding="utf-8")) == before
    report = check(content)
    assert report.errors == [], format_report(report)


@pytest.mark.parametrize(("fmt", "ext"), [("gift", "gift"), ("csv", "csv"), ("moodle", "xml"),
                                          ("qti", "zip")])  # fmt: skip
def test_a_translated_pictures_alt_text_survives_the_round_trip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str, ext: str
) -> None:
    """gradient-checkpointing's `sqrt-n` has a diagram: its French alt text must come back,
    carried by the file (Moodle, QTI) or kept from the file replaced (GIFT, CSV)."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    quiz = "gradient-checkpointing"
    target = content / "quizzes" / f"{quiz}.fr.yaml"
    before = yaml.safe_load(target.read_text(encoding="utf-8"))
    exported = tmp_path / f"{quiz}.fr.{ext}"
    args = ["export", quiz, "--format", fmt, "--lang", "fr", "--content", str(content)]
    assert main([*args, "--out", str(exported)]) == 0
    status = main(["import", str(exported), "--format", fmt, "--lang", "fr", "--id", quiz,
                   "--force", "--out", str(content), "--max-mb", "5"])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    after = yaml.safe_load(target.read_text(encoding="utf-8"))
    assert after["questions"]["sqrt-n"]["image"] == before["questions"]["sqrt-n"]["image"]


def test_a_translation_exported_to_aiken_imports_back_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Aiken has no ids and no explanations: its questions are matched by position among the
    source's questions Aiken can carry, and the rest is kept from the file replaced."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    quiz = "gradient-accumulation"
    target = content / "quizzes" / f"{quiz}.fr.yaml"
    before = yaml.safe_load(target.read_text(encoding="utf-8"))
    exported = tmp_path / f"{quiz}.fr.aiken"
    args = ["export", quiz, "--format", "aiken", "--lang", "fr", "--content", str(content)]
    assert main([*args, "--out", str(exported)]) == 0
    status = main(["import", str(exported), "--format", "aiken", "--lang", "fr", "--id", quiz,
                   "--force", "--out", str(content)])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    assert yaml.safe_load(target.read_text(encoding="utf-8")) == before
