"""A PO translator who leaves a string as the English is told what to do in their own tool:
set the entry's `same-as-source` flag (content/README.md, "A translator's workflow"), not edit a
YAML list they never see."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.cli.content import main
from bot.content.po_workflow import export_po
from tests.content.test_po_workflow import _line, _po, _set_msgstr

CONTENT = Path(__file__).resolve().parents[2] / "content"


def test_a_string_left_in_english_names_the_po_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    po = _po(export_po(content, "fr", tmp_path / "po"), "gradient-accumulation")
    key = "questions.cost.options.b"
    english = next(m.id for m in read_po(po.open("rb")) if m.context == key)
    assert isinstance(english, str) and '"' not in english
    _set_msgstr(po, key, english)
    assert main(["po", "import", str(po), "--content", str(content)]) == 1
    out = capsys.readouterr().out
    line = _line(po, key)
    assert f"{po}:{line}: {key}: error: same as the English" in out, out
    assert "same-as-source flag" in out, out
    assert "add its key to same_as_source" not in out, out
