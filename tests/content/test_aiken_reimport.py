"""A teacher's Aiken file imported again over its own quiz (`export Q --format aiken`, edit,
`import ... --format aiken --force`). Aiken carries no question ids and no explanations: the
import used to name every question q1, q2... with a stand-in explanation, so the quiz's history
and its translations no longer matched anything. The questions are matched to the quiz they
replace instead (by prompt, then by position, then by similarity), keeping their ids,
explanations and translations; a question whose English changed marks its translations as
needing review (`reviewed: false`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from bot.cli.content import main
from bot.content import check, format_report
from bot.content.formats.draft import DraftOption, DraftQuestion, DraftQuiz
from bot.content.reimport_match import match

SHIPPED = Path(__file__).resolve().parents[2] / "content"
QUIZ = "gradient-checkpointing"


def _text(value: object) -> object:
    """Values as the checker reads them: always text (`64` and `"64"` are the same key)."""
    if isinstance(value, dict):
        return {str(k): _text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_text(v) for v in value]
    return value if value is None or isinstance(value, bool) else str(value)


def _load(path: Path) -> dict[str, object]:
    loaded = _text(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert isinstance(loaded, dict)
    return loaded


def _questions(path: Path) -> dict[str, dict[str, object]]:
    questions = _load(path)["questions"]
    assert isinstance(questions, dict)
    return questions


@pytest.fixture
def content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(SHIPPED, root)
    return root


def _export(content: Path, tmp_path: Path) -> tuple[Path, str]:
    aiken = tmp_path / "week-3.txt"
    assert main(["export", QUIZ, "--format", "aiken", "--content", str(content),
                 "--out", str(aiken)]) == 0  # fmt: skip
    return aiken, aiken.read_text(encoding="utf-8")


def _import(aiken: Path, content: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["import", str(aiken), "--format", "aiken", "--id", QUIZ, "--force",
                   "--out", str(content)])  # fmt: skip
    return status, capsys.readouterr().out


def test_an_unchanged_aiken_file_gives_the_quiz_back(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = content / "quizzes"
    files = sorted(folder.glob(f"{QUIZ}*.yaml"))
    before = {p.name: _load(p) for p in files}
    raw = {p.name: p.read_bytes() for p in files if p.name != f"{QUIZ}.yaml"}
    aiken, _ = _export(content, tmp_path)
    status, out = _import(aiken, content, capsys)
    assert status == 0, out
    assert {p.name: _load(p) for p in files} == before
    assert {p.name: p.read_bytes() for p in files if p.name != f"{QUIZ}.yaml"} == raw
    assert "9 questions matched" in out
    assert "stands in" not in out  # every explanation is the quiz's own


def test_an_edited_question_keeps_its_id_explanation_and_translations(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = content / "quizzes"
    before = _questions(folder / f"{QUIZ}.yaml")
    fr_before = _questions(folder / f"{QUIZ}.fr.yaml")
    aiken, text = _export(content, tmp_path)
    old = "In practice, what decides how much checkpointing slows training down?"
    new = "In practice, what decides how much gradient checkpointing slows down a training run?"
    assert old in text
    aiken.write_text(text.replace(old, new), encoding="utf-8")
    status, out = _import(aiken, content, capsys)
    assert status == 0, out
    after = _questions(folder / f"{QUIZ}.yaml")
    assert list(after) == list(before)
    assert after["overhead"]["prompt"] == new
    assert {q: after[q]["explanation"] for q in after} == {
        q: before[q]["explanation"] for q in before
    }
    source = _load(folder / f"{QUIZ}.yaml")
    assert source["languages"] == ["en", "fr", "wo"]
    assert source["title"] == "Gradient checkpointing"
    # The French text stays, marked as needing review, with the question named in the file.
    fr_text = (folder / f"{QUIZ}.fr.yaml").read_text(encoding="utf-8")
    assert _questions(folder / f"{QUIZ}.fr.yaml") == fr_before
    assert _load(folder / f"{QUIZ}.fr.yaml")["reviewed"] is False
    assert "# review: the English of this question changed" in fr_text.split("  overhead:")[0]
    assert "1 question changed: overhead" in out
    assert "reviewed: false" in out
    report = check(content)
    assert report.errors == [], format_report(report)


def test_moved_added_and_removed_questions(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The `combine` question deleted, `sqrt-n` moved to the end with its prompt reworded, and
    a new question added: the others keep their ids, the new one gets an id no question ever
    had, and `combine` goes from the translations too (Aiken cannot carry them)."""
    folder = content / "quizzes"
    aiken, text = _export(content, tmp_path)
    blocks = text.strip().split("\n\n")
    combine = next(b for b in blocks if b.startswith("Which techniques combine well"))
    sqrt_n = next(b for b in blocks if b.startswith("In a chain of N similar layers"))
    blocks.remove(combine)
    blocks.remove(sqrt_n)
    blocks.append(sqrt_n.replace("Roughly how much", "About how much"))
    blocks.append(
        "What does `torch.utils.checkpoint` save?\nA. The inputs of the region\n"
        "B. Every activation\nANSWER: A"
    )
    aiken.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    status, out = _import(aiken, content, capsys)
    assert status == 0, out
    after = _questions(folder / f"{QUIZ}.yaml")
    assert "combine" not in after
    assert list(after)[:7] == [
        "trade-off", "why-activations", "overhead", "pytorch-api", "backward-region",
        "selective", "same-gradients",
    ]  # fmt: skip
    assert "sqrt-n" in after and after["sqrt-n"]["prompt"].startswith("In a chain")
    new = [q for q in after if q not in _questions(SHIPPED / "quizzes" / f"{QUIZ}.yaml")]
    assert len(new) == 1
    for lang in ("fr", "wo"):
        assert "combine" not in _questions(folder / f"{QUIZ}.{lang}.yaml")
        assert "sqrt-n" in _questions(folder / f"{QUIZ}.{lang}.yaml")
    assert _load(folder / f"{QUIZ}.yaml")["languages"] == ["en"]  # the new one is untranslated
    assert "7 questions matched" in out
    assert "1 question changed: sqrt-n" in out
    assert f"1 question added: {new[0]}" in out
    assert "1 question removed: combine" in out
    report = check(content)
    assert report.errors == [], format_report(report)


def _q(qid: str, prompt: str, *options: str) -> DraftQuestion:
    return DraftQuestion(qid, prompt, tuple(DraftOption(o, i == 0) for i, o in enumerate(options)))


def test_matching_rules() -> None:
    old = DraftQuiz("x", "X", "en", (
        _q("alpha", "What is the learning rate?", "A step size", "A loss", "A layer"),
        _q("beta", "Which optimizer keeps two moments?", "Adam", "SGD", "RMSprop"),
        _q("gamma", "What does dropout do?", "Zeroes units", "Adds units", "Nothing"),
    ))  # fmt: skip
    draft = DraftQuiz("x", "x", "en", (
        _q("q1", "What does dropout do?", "Zeroes units", "Adds units", "Nothing"),  # by prompt
        _q("q2", "Which optimiser keeps two moment estimates?", "Adam", "SGD", "Lion"),  # similar
        _q("q3", "Name a tokenizer.", "BPE", "ReLU", "Adam"),  # new
    ))  # fmt: skip
    found = match(old, draft, "aiken")
    assert [q.id for q in found.quiz.questions] == ["gamma", "beta", "q3"]
    assert found.matched == 1  # unchanged; beta is matched and changed
    assert found.changed == ("beta",)
    assert found.added == ("q3",)
    assert found.removed == ("alpha",)
    # By position: the prompt rewritten, the options the same.
    draft = DraftQuiz("x", "x", "en", (
        _q("q1", "Define LR.", "A step size", "A loss", "A layer"),
    ))  # fmt: skip
    assert [q.id for q in match(old, draft, "aiken").quiz.questions] == ["alpha"]
    # A new question never takes the id of one that was removed.
    draft = DraftQuiz("x", "x", "en", (_q("alpha", "Name a tokenizer.", "BPE", "ReLU"),))
    assert [q.id for q in match(old, draft, "aiken").quiz.questions] == ["alpha-2"]


def test_an_english_sheet_that_rewords_a_question_marks_its_translations(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same rule for a spreadsheet whose English alone is imported again: the French and
    Wolof files, which it leaves alone, keep their text and are marked for review."""
    folder = content / "quizzes"
    sheet = tmp_path / "sheet.csv"
    assert main(["export", QUIZ, "--format", "csv", "--lang", "en", "--content", str(content),
                 "--out", str(sheet)]) == 0  # fmt: skip
    text = sheet.read_text(encoding="utf-8")
    old = "In practice, what decides how much checkpointing slows training down?"
    assert old in text
    sheet.write_text(text.replace(old, "What decides how much checkpointing slows training?"))
    status = main(["import", str(sheet), "--format", "csv", "--force", "--out", str(content)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert _load(folder / f"{QUIZ}.fr.yaml")["reviewed"] is False
    assert "the English of overhead changed" in out
    assert _load(folder / f"{QUIZ}.yaml")["languages"] == ["en", "fr", "wo"]
    assert check(content).errors == []
