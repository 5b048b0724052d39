"""A translator's PO round trip on the shipped quizzes (issue 29): export, edit, import, check."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.cli.content import main
from bot.content.po_workflow import export_po, import_po
from bot.content.problems import Problems
from bot.content.sources import QuizFiles, read_content
from bot.content.translations import source_strings, translated_strings
from bot.content.yaml_nodes import key_str

CONTENT = Path(__file__).resolve().parents[2] / "content"
# The shipped quizzes these tests edit, picked by name: the catalogue grows (issue 29).
GA, GC = "gradient-accumulation", "gradient-checkpointing"
QUIZ_IDS = sorted({p.name.split(".")[0] for p in (CONTENT / "quizzes").glob("*.yaml")})


def _po(paths: list[Path], quiz: str) -> Path:
    """The exported PO file of one quiz."""
    return next(p for p in paths if p.name.split(".")[0] == quiz)


def _quiz(content: Path, quiz: str) -> QuizFiles:
    """One quiz's files, as the workflow reads them."""
    files = read_content(content, Problems()).quizzes
    return next(f for f in files if f.source.path.name == f"{quiz}.yaml")


@pytest.fixture
def content(tmp_path: Path) -> Path:
    shutil.copytree(CONTENT, tmp_path / "content")
    return tmp_path / "content"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.yaml"))}


def _set_msgstr(po: Path, context: str, text: str) -> None:
    """Change one entry's msgstr as Poedit would (the whole, possibly wrapped, msgstr)."""
    body = po.read_text(encoding="utf-8")
    entry = re.compile(rf'(msgctxt "{re.escape(context)}"\nmsgid (?:".*"\n)+)msgstr (?:".*"\n)+')
    assert len(entry.findall(body)) == 1, context
    po.write_text(entry.sub(lambda m: f'{m.group(1)}msgstr "{text}"\n', body), encoding="utf-8")


def _line(po: Path, context: str) -> int:
    return next(m.lineno for m in read_po(po.open("rb")) if m.context == context)


def test_export_writes_one_entry_per_string_with_its_key_source_and_facts(
    content: Path, tmp_path: Path
) -> None:
    paths = export_po(content, "fr", tmp_path / "po")
    assert [p.name for p in paths] == [f"{quiz}.fr.po" for quiz in QUIZ_IDS]
    catalog = read_po(_po(paths, GA).open("rb"))
    assert str(catalog.locale) == "fr" and catalog.project == GA
    files = _quiz(content, GA)
    english = source_strings(files.source.model)
    french = translated_strings(files.translations["fr"].model)
    entries = {m.context: m for m in catalog if m.id}
    assert list(entries) == [key_str(at) for at in english]
    for at, text in english.items():
        assert entries[key_str(at)].id == text
        assert entries[key_str(at)].string == french[at]
    right = entries["questions.effective-batch.options.c"].auto_comments
    assert "This option is RIGHT." in right and "Keep exactly as in the English: 32." in right
    wrong = entries["questions.effective-batch.options.d"].auto_comments
    assert "This option is wrong: keep it wrong." in wrong
    assert any(c.startswith("Why: Each update sums") for c in wrong)
    label = entries["questions.micro-batch-memory.options.false"].auto_comments
    assert "The 'false' label: write 'Faux'." in label


def test_importing_an_unchanged_export_changes_nothing(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(content)
    for lang in ("fr", "wo"):
        assert main(["po", "export", "--lang", lang, "--content", str(content), "--out",
                     str(tmp_path / "po")]) == 0  # fmt: skip
    pos = sorted(str(p) for p in (tmp_path / "po").glob("*.po"))
    assert len(pos) == 2 * len(QUIZ_IDS)
    assert main(["po", "import", *pos, "--content", str(content)]) == 0
    assert capsys.readouterr().out.count(": nothing changed") == 2 * len(QUIZ_IDS)
    assert _files(content) == before


@pytest.mark.parametrize("lang", ["fr", "wo"])
def test_an_edited_string_comes_back_and_nothing_else_moves(
    content: Path, tmp_path: Path, lang: str
) -> None:
    """Lossless: every other string, `same_as_source`, `reviewed:` and the image keep their
    values; exporting again gives the edited PO file back."""
    before = _quiz(content, GC).translations[lang].model
    po = _po(export_po(content, lang, tmp_path / "po"), GC)
    _set_msgstr(po, "questions.overhead.prompt", "Combien coûte le recalcul\u202f?")
    done = import_po(po, content)
    assert done.ok and done.yaml == content / f"quizzes/gradient-checkpointing.{lang}.yaml"
    after = _quiz(content, GC).translations[lang].model
    assert after.questions["overhead"].prompt == "Combien coûte le recalcul\u202f?"
    edited = before.model_dump()
    edited["questions"]["overhead"]["prompt"] = "Combien coûte le recalcul\u202f?"
    assert after.model_dump() == edited
    assert after.reviewed is (lang == "fr")
    again = _po(export_po(content, lang, tmp_path / "again"), GC)
    date = re.compile(r'"POT-Creation-Date: .*\n')
    assert date.sub("", again.read_text("utf-8")) == date.sub("", po.read_text("utf-8"))


def test_a_drifted_translation_is_refused_at_its_po_line_and_the_yaml_kept(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(content)
    po = _po(export_po(content, "fr", tmp_path / "po"), GA)
    _set_msgstr(po, "questions.effective-batch.options.c", "12")
    line = _line(po, "questions.effective-batch.options.c")
    assert main(["po", "import", str(po), "--content", str(content)]) == 1
    out = capsys.readouterr().out
    assert (
        f"{po}:{line}: questions.effective-batch.options.c: error: numbers differ from the "
        "English: the English has '32'; this has '12'" in out
    ), out
    assert "not imported" in out
    assert _files(content) == before


def test_an_entry_whose_english_changed_is_refused(content: Path, tmp_path: Path) -> None:
    po = _po(export_po(content, "fr", tmp_path / "po"), GA)
    text = po.read_text("utf-8")
    po.write_text(text.replace('msgid "What does gradient accumulation mainly let you do?"',
                               'msgid "What does accumulation do?"'), "utf-8")  # fmt: skip
    done = import_po(po, content)
    assert not done.ok and done.yaml is None
    [problem] = done.problems
    assert problem.key == "questions.purpose.prompt" and "export again" in problem.message
    assert problem.line == _line(po, "questions.purpose.prompt")


def test_a_fuzzy_entry_is_left_as_it_was(content: Path, tmp_path: Path) -> None:
    before = _files(content)
    po = _po(export_po(content, "fr", tmp_path / "po"), GA)
    text = po.read_text("utf-8").replace(
        'msgctxt "questions.cost.prompt"', '#, fuzzy\nmsgctxt "questions.cost.prompt"'
    )
    po.write_text(text, "utf-8")
    _set_msgstr(po, "questions.cost.prompt", "Brouillon")
    done = import_po(po, content)
    assert done.ok and done.yaml is None
    assert [p.message for p in done.problems] == ["fuzzy (marked as needing work): left as it was"]
    assert _files(content) == before


def test_a_po_file_that_is_not_one_is_refused(content: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.po"
    bad.write_bytes(b'msgid "a"\nmsgstr "b"\nmsgid\n\x00\xff')
    done = import_po(bad, content)
    assert not done.ok and done.yaml is None


@pytest.mark.parametrize(
    ("language", "words"),
    [("../../etc", "cannot read the PO file"), ("fr_FR", "'fr_FR' names a region: set it to fr"),
     ("french", "'french' is not a language code"), ("en", "English is the source")],
)  # fmt: skip
def test_a_language_that_cannot_name_a_file_is_refused(
    content: Path, tmp_path: Path, language: str, words: str
) -> None:
    before = _files(content)
    po = export_po(content, "fr", tmp_path / "po")[0]
    po.write_text(po.read_text("utf-8").replace('"Language: fr\\n"', f'"Language: {language}\\n"'))
    done = import_po(po, content)
    assert not done.ok and words in done.problems[0].message, done.problems
    assert _files(content) == before


def test_export_refuses_english_and_a_bad_code(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for lang in ("en", "../x"):
        assert main(["po", "export", "--lang", lang, "--content", str(content), "--out",
                     str(tmp_path / "po")]) == 2  # fmt: skip
    assert "English is the source" in capsys.readouterr().out
    assert not (tmp_path / "po").exists()


def test_a_string_left_in_english_names_the_po_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A PO translator who leaves a string as the English is told what to do in their own tool:
    set the entry's `same-as-source` flag (content/README.md, "A translator's workflow"), not edit
    a YAML list they never see."""
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


def test_without_content_it_says_which_content_it_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run outside a checkout's folder, `po export` read the checkout's content without a word:
    a translator could not tell which quizzes their PO files came from."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("QUIZBOT_CONTENT_DIR", raising=False)
    assert main(["po", "export", "--lang", "fr", "--out", str(tmp_path / "po")]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"content: {Path(__file__).resolve().parents[2] / 'content'}"
