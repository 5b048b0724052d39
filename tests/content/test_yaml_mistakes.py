"""The YAML mistakes a first-time author or translator makes, through `quizbot content check`:
each error names the file and the line and says what to do, not only PyYAML's own words
("found character '\\t' that cannot start any token")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.cli.content import main

SHIPPED = Path(__file__).resolve().parents[2] / "content"
FRENCH = "gradient-accumulation.fr.yaml"


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str, to: str) -> str:
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    path = content / "quizzes" / FRENCH
    text = path.read_text(encoding="utf-8")
    assert edit in text
    path.write_text(text.replace(edit, to, 1), encoding="utf-8")
    assert main(["check", str(content)]) == 1
    return capsys.readouterr().out


def test_a_tab_in_the_indentation_says_to_indent_with_spaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _check(tmp_path, capsys, "\n    prompt:", "\n\tprompt:")
    assert f"{FRENCH}:10: invalid YAML" in out
    assert "indent with spaces, not tabs" in out


def test_an_apostrophe_inside_single_quotes_says_how_to_write_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _check(tmp_path, capsys, 'title: "Accumulation de gradient"',
                 "title: 'L'accumulation de gradient'")  # fmt: skip
    assert f"{FRENCH}:5: invalid YAML" in out
    assert "an apostrophe inside '...' ends the text" in out


def test_a_file_saved_in_cp1252_names_its_line_and_says_to_save_it_as_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    path = content / "quizzes" / FRENCH
    text = path.read_text(encoding="utf-8").replace("\u202f", " ")
    path.write_bytes(text.encode("cp1252", errors="replace"))
    assert main(["check", str(content)]) == 1
    out = capsys.readouterr().out
    line = next(n for n, row in enumerate(text.splitlines(), 1) if not row.isascii())
    assert f"{FRENCH}:{line}: the file is not UTF-8" in out
    assert "save it as UTF-8" in out


def test_a_copied_quiz_whose_id_was_not_changed_is_the_one_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new quiz started as a copy of a shipped one, its id left as it was: the error named
    the shipped file (the copy came first in name order), which the author never touched."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    shipped = content / "quizzes" / "training-loop.yaml"
    shutil.copy(shipped, content / "quizzes" / "attention-basics.yaml")
    assert main(["check", str(content)]) == 1
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if "duplicate quiz id" in line]
    assert len(errors) == 1, out
    where, _, said = errors[0].partition(": id: ")
    assert where.endswith("attention-basics.yaml:4"), errors[0]
    assert said.endswith("already used by " + str(shipped)), errors[0]


TITLE = 'title: "Accumulation de gradient"'


@pytest.mark.parametrize(
    ("written", "line", "says"),
    [
        # A double quote never closed: the error is where it opens, not where PyYAML gave up.
        ('title: "Accumulation de gradient', 5, 'the " that opens this value is never closed'),
        ("title: *brouillon Accumulation", 5, "a value that starts with * is read as an alias"),
        ("title: [brouillon] Accumulation", 5, "a value that starts with [ is read as a list"),
        ("title: {brouillon} Accumulation", 5, "a value that starts with { is read as a mapping"),
        ("title: @todo Accumulation", 5, "a value that starts with @ must be quoted"),
        ("title: `accumulate` Accumulation", 5, "a value that starts with ` must be quoted"),
        ("title: Note: accumulation", 5, "this value contains ': '"),
    ],
)
def test_a_value_yaml_reads_otherwise_names_its_line_and_says_to_quote_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, line: int, says: str
) -> None:
    out = _check(tmp_path, capsys, TITLE, written)
    mine = [row for row in out.splitlines() if FRENCH in row]
    assert len(mine) == 1, out
    assert f"{FRENCH}:{line}: invalid YAML: {says}" in mine[0]
    assert "quote" in mine[0] and 'e.g. title: "' in mine[0]
    assert "expected <block end>" not in out and "cannot start any token" not in out
    assert "mapping values are not allowed" not in out and "undefined alias" not in out


def test_a_hash_inside_a_plain_value_warns_that_the_rest_was_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    path = content / "quizzes" / FRENCH
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(TITLE, "title: Accumulation de gradient #2 en pratique", 1))
    assert main(["check", str(content)]) == 0  # a warning: the bot starts
    out = capsys.readouterr().out
    assert f"{FRENCH}:5: title: everything after # was dropped" in out
    assert "quote the value" in out


def test_a_comment_after_a_structural_value_is_not_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`answer: b  # the right one`, as the README's examples write it, is a comment."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    path = content / "quizzes" / "gradient-accumulation.yaml"
    text = path.read_text(encoding="utf-8")
    assert "\n    answer: a\n" in text
    path.write_text(text.replace("\n    answer: a\n", "\n    answer: a  # the right one\n", 1))
    assert main(["check", str(content)]) == 0
    assert "was dropped" not in capsys.readouterr().out


def test_an_unclosed_quote_in_an_option_is_reported_at_its_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    option = 'a: "Entraîner avec un lot effectif plus grand que ce que tient la mémoire du GPU"'
    out = _check(tmp_path, capsys, option, option.rstrip('"'))
    assert f'{FRENCH}:12: invalid YAML: the " that opens this value is never closed' in out


def test_an_unclosed_quote_at_the_end_of_the_file_is_reported_where_it_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    path = content / "quizzes" / FRENCH
    text = path.read_text(encoding="utf-8").rstrip("\n") + '\nsame_as_source: "\n\n'
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(content)]) == 1
    line = text.count("\n", 0, text.index('same_as_source: "')) + 1
    assert f'{FRENCH}:{line}: invalid YAML: the " that opens' in capsys.readouterr().out
