"""An author's round trip through a teacher's format: `export Q --format csv` (or gift), edit
the sheet, `import ... --force`. The formats cannot carry everything a quiz holds (CSV: no
select-all or number question, a true/false one as two plain options, no picture; GIFT: no
picture, no unit, no description), so the import must keep, from the source it replaces, what
the file could not carry, as it does for a translation (`translation_keep.py`), instead of
silently deleting questions the checker then has no reason to miss."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from bot.cli.content import main
from bot.content import check, format_report

SHIPPED = Path(__file__).resolve().parents[2] / "content"


def _text(value: object) -> object:
    """Values as the checker reads them: always text (`64` and `"64"` are the same key)."""
    if isinstance(value, dict):
        return {str(k): _text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_text(v) for v in value]
    return value if value is None else str(value)


def _load(path: Path) -> object:
    return _text(yaml.safe_load(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("quiz", ["gradient-accumulation", "gradient-checkpointing"])
def test_a_quiz_exported_to_csv_and_imported_back_keeps_every_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], quiz: str
) -> None:
    """Every language in one sheet, imported back over the quiz without --guide or --level:
    the source and both translations come back as they were."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    folder = content / "quizzes"
    files = [folder / f"{quiz}.yaml", folder / f"{quiz}.fr.yaml", folder / f"{quiz}.wo.yaml"]
    before = [_load(path) for path in files]
    sheet = tmp_path / f"{quiz}.csv"
    assert main(["export", quiz, "--format", "csv", "--content", str(content),
                 "--out", str(sheet)]) == 0  # fmt: skip
    status = main(["import", str(sheet), "--format", "csv", "--force", "--out", str(content)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert [_load(path) for path in files] == before
    report = check(content)
    assert report.errors == [], format_report(report)


def test_a_quiz_exported_to_gift_and_imported_back_keeps_its_pictures_and_units(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    quiz = "gradient-checkpointing"
    source = content / "quizzes" / f"{quiz}.yaml"
    before = _load(source)
    exported = tmp_path / f"{quiz}.gift"
    assert main(["export", quiz, "--format", "gift", "--content", str(content),
                 "--out", str(exported)]) == 0  # fmt: skip
    status = main(["import", str(exported), "--format", "gift", "--force", "--out", str(content)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert _load(source) == before


def test_a_question_removed_from_the_sheet_is_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the file can carry, the file decides: a single-choice question whose rows are
    deleted (in every language) is deleted; the select-all and number questions stay."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    quiz = "gradient-accumulation"
    sheet = tmp_path / f"{quiz}.csv"
    assert main(["export", quiz, "--format", "csv", "--content", str(content),
                 "--out", str(sheet)]) == 0  # fmt: skip
    rows = sheet.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [row for row in rows if ",cost," not in row]
    assert len(kept) == len(rows) - 3
    sheet.write_text("".join(kept), encoding="utf-8")
    status = main(["import", str(sheet), "--format", "csv", "--force", "--out", str(content)])
    out = capsys.readouterr().out
    assert status == 0, out
    for name in (f"{quiz}.yaml", f"{quiz}.fr.yaml", f"{quiz}.wo.yaml"):
        questions = _load(content / "quizzes" / name)["questions"]  # type: ignore[index]
        assert "cost" not in questions
        assert {"accumulation-facts", "effective-batch-gpus", "micro-batch-memory"} <= set(
            questions
        )
    source = _load(content / "quizzes" / f"{quiz}.yaml")
    assert source["questions"]["micro-batch-memory"]["kind"] == "true_false"  # type: ignore[index]
    assert source["languages"] == ["en", "fr", "wo"]  # type: ignore[index]
    assert check(content).errors == []


def test_an_english_sheet_that_leaves_a_translation_stale_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The English rows alone, one question deleted: the French and Wolof files still
    translate it, an error the bot refuses to start on. The import says so, naming those
    files, and writes nothing (it used to write, say OK, and leave the content broken)."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    quiz = "gradient-accumulation"
    before = {p.name: p.read_bytes() for p in (content / "quizzes").iterdir()}
    sheet = tmp_path / f"{quiz}.csv"
    assert main(["export", quiz, "--format", "csv", "--lang", "en", "--content", str(content),
                 "--out", str(sheet)]) == 0  # fmt: skip
    rows = sheet.read_text(encoding="utf-8").splitlines(keepends=True)
    sheet.write_text("".join(row for row in rows if ",cost,en," not in row), encoding="utf-8")
    status = main(["import", str(sheet), "--format", "csv", "--force", "--out", str(content)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert f"quizzes/{quiz}.fr.yaml:" in out and "questions.cost" in out
    assert "nothing was written" in out
    assert {p.name: p.read_bytes() for p in (content / "quizzes").iterdir()} == before
