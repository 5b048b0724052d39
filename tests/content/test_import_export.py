"""`quizbot content import` and `export` through the command line, on real files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.cli.content import main
from bot.content import check, default_content_dir, format_report, load_catalog
from bot.content.formats import parse
from bot.core.kinds import NumberAnswer, QuestionKind

FIXTURES = Path(__file__).parent / "fixtures"
FORMATS = FIXTURES / "formats"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    root.mkdir()
    shutil.copy(FIXTURES / "valid" / "guides.yaml", root / "guides.yaml")
    return root


def shape(fmt: str, text: str, lang: str | None = None) -> list[tuple[object, ...]]:
    return [
        (q.id, q.prompt, tuple((o.text, o.correct) for o in q.options), q.explanation, q.number)
        for quiz in parse(fmt, text, "x").quizzes
        if lang is None or quiz.lang == lang
        for q in quiz.questions
    ]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_gift_imports_checks_and_round_trips(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FORMATS / "optimizers.gift"
    status, out, _ = run(capsys, "import", str(source), "--format", "gift", "--out", str(content))
    assert status == 0, out
    assert "optimizers.gift:4: note: feedback on wrong answer B" in out
    assert (content / "quizzes" / "optimizer-basics.yaml").is_file()
    assert (content / "quizzes" / "data-loading.yaml").is_file()
    report = check(content)
    assert report.errors == [], format_report(report)
    catalog = load_catalog(content)
    assert [q.id for q in catalog.quiz("optimizer-basics").questions] == ["step", "escapes", "lr"]

    exported = ""
    for quiz in ("optimizer-basics", "data-loading"):
        status, text, _ = run(capsys, "export", quiz, "--format", "gift", "--content", str(content))
        assert status == 0
        exported += text + "\n"
    assert shape("gift", exported) == shape("gift", source.read_text(encoding="utf-8"))


def test_csv_imports_source_and_translation(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FORMATS / "optimizers.csv"
    status, out, _ = run(
        capsys, "import", str(source), "--format", "csv", "--out", str(content), "--id", "opt"
    )
    assert status == 0, out
    assert "languages: [en]" in (content / "quizzes" / "opt.yaml").read_text(encoding="utf-8")
    french = load_catalog(content).quiz("opt").questions[1]
    assert french.options[french.correct].text.get("fr") == "La perte diverge, ou oscille"
    status, text, _ = run(capsys, "export", "opt", "--format", "csv", "--content", str(content))
    assert status == 0
    original = source.read_text(encoding="utf-8")
    assert shape("csv", text, "en") == shape("csv", original, "en")
    assert [row[:2] for row in shape("csv", text, "fr")] == [
        row[:2] for row in shape("csv", original, "fr")
    ]


def test_a_translation_joins_an_existing_source(
    content: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run(
        capsys,
        "import",
        str(FORMATS / "optimizers.aiken"),
        "--format",
        "aiken",
        "--out",
        str(content),
        "--id",
        "opt",
    )
    source = content / "quizzes" / "opt.yaml"
    text = source.read_text(encoding="utf-8").replace('explanation: ""', 'explanation: "Why."')
    source.write_text(text, encoding="utf-8")
    french = tmp_path / "opt.fr.aiken"
    french.write_text(
        "Quel appel applique les gradients accumulés aux poids ?\n"
        "A. optimizer.zero_grad()\nB. optimizer.step()\nC. loss.backward()\nANSWER: B\n\n"
        "Que se passe-t-il si le taux d’apprentissage est bien trop élevé ?\n"
        "A. L’entraînement converge plus vite\nB. La perte diverge ou oscille\nANSWER: A\n",
        encoding="utf-8",
    )
    status, out, _ = run(
        capsys,
        "import",
        str(french),
        "--format",
        "aiken",
        "--lang",
        "fr",
        "--out",
        str(content),
        "--id",
        "opt",
    )
    # The second French question moved the right answer: reported by line, left out.
    assert "opt.fr.aiken:7: skipped: q2: the right answer is not the source's" in out
    # Its code options are the English ones (not marked same_as_source): a checker error, so
    # nothing reaches the content directory (issue 28 #13).
    assert status == 1
    assert "questions.q1.options.a: same as the English" in out
    assert "nothing was written to" in out
    assert not (content / "quizzes" / "opt.fr.yaml").exists()


def test_problems_are_reported_never_dropped(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        capsys,
        "import",
        str(FORMATS / "unsupported.gift"),
        "--format",
        "gift",
        "--out",
        str(content),
    )
    assert status == 0, out
    assert out.count(": skipped: ") == 11
    assert "unsupported.gift:2: skipped: numerical question" in out
    # The one good question is written; the right option stands in for its missing explanation.
    assert "ok: no explanation in the file: the right option stands in for it" in out
    assert "OK: 11 skipped, 0 checker errors" in out


def test_aiken_questions_need_explanations(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        capsys,
        "import",
        str(FORMATS / "optimizers.aiken"),
        "--format",
        "aiken",
        "--out",
        str(content),
    )
    # As on an upload: the right option stands in, and each is named by line.
    assert status == 0, out
    assert "optimizers.aiken:1: q1: no explanation in the file" in out
    assert "optimizers.aiken:7: q2: no explanation in the file" in out
    written = (content / "quizzes" / "optimizers.yaml").read_text(encoding="utf-8")
    assert "✅" in written


def test_import_never_overwrites_unless_asked(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["import", str(FORMATS / "optimizers.gift"), "--format", "gift", "--out", str(content)]
    assert run(capsys, *args)[0] == 0
    target = content / "quizzes" / "data-loading.yaml"
    target.write_text("edited", encoding="utf-8")
    status, _, err = run(capsys, *args)
    assert status == 1 and "--force" in err
    assert target.read_text(encoding="utf-8") == "edited"
    assert run(capsys, *args, "--force")[0] == 0
    assert target.read_text(encoding="utf-8") != "edited"


def test_clear_failures(content: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    latin1 = tmp_path / "latin1.gift"
    latin1.write_bytes("Qué? {=sí ~no}".encode("latin-1"))
    status, _, err = run(capsys, "import", str(latin1), "--format", "gift", "--out", str(content))
    assert status == 1 and "not UTF-8" in err
    status, _, err = run(
        capsys,
        "import",
        str(FORMATS / "optimizers.gift"),
        "--format",
        "gift",
        "--out",
        str(tmp_path),
    )
    assert status == 1 and "no guides.yaml" in err
    status, _, err = run(capsys, "export", "nope", "--format", "gift", "--content", str(content))
    assert status == 1 and "no quiz 'nope'" in err


def test_shipped_quiz_exports_in_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    shipped = Path(__file__).resolve().parents[2] / "content"
    for fmt in ("gift", "csv"):
        status, text, _ = run(
            capsys, "export", "gradient-checkpointing", "--format", fmt, "--content", str(shipped)
        )
        assert status == 0 and len(shape(fmt, text)) >= 8
    status, text, err = run(
        capsys,
        "export",
        "gradient-checkpointing",
        "--format",
        "gift",
        "--lang",
        "fr",
        "--content",
        str(shipped),
    )
    # GIFT has no units: the number question's "GB" is left out, and said so.
    assert status == 0 and "Gradient checkpointing" in text
    assert err == "note: GIFT has no units: 1 left out\n"


def test_gift_true_false_imports_as_kind_true_false_and_exports_back(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FORMATS / "true-false.gift"
    status, out, _ = run(
        capsys, "import", str(source), "--format", "gift", "--out", str(content), "--id", "tf"
    )
    assert status == 0, out
    written = (content / "quizzes" / "tf.yaml").read_text(encoding="utf-8")
    assert "kind: true_false" in written and 'answer: "false"' in written
    quiz = load_catalog(content).quiz("tf")
    assert quiz is not None
    assert [q.kind for q in quiz.questions] == [QuestionKind.TRUE_FALSE] * 2
    assert [q.correct for q in quiz.questions] == [0, 1]
    status, text, _ = run(capsys, "export", "tf", "--format", "gift", "--content", str(content))
    assert status == 0 and "{\nTRUE\n####Rayleigh scattering.\n}" in text, text
    assert shape("gift", text) == shape("gift", source.read_text(encoding="utf-8"))


def test_gift_several_right_answers_round_trip_as_kind_multiple(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FORMATS / "multiple.gift"
    status, out, _ = run(
        capsys, "import", str(source), "--format", "gift", "--out", str(content), "--id", "multi"
    )
    assert status == 0, out
    assert "multiple.gift:4: note: several right answers: kind multiple" in out
    written = (content / "quizzes" / "multi.yaml").read_text(encoding="utf-8")
    assert "kind: multiple" in written and "answer: [a, c]" in written
    quiz = load_catalog(content).quiz("multi")
    assert quiz is not None
    facts, two, single = quiz.questions
    assert (facts.kind, facts.key) == (QuestionKind.MULTIPLE, {0, 2})
    assert (two.kind, two.key) == (QuestionKind.MULTIPLE, {0, 1})
    assert single.kind is QuestionKind.SINGLE
    # Back to GIFT as Moodle's multiple-answer form: right answers share 100 %, a wrong pick
    # costs as much as a right one earns (the same partial credit as quizbot's).
    status, text, _ = run(capsys, "export", "multi", "--format", "gift", "--content", str(content))
    assert status == 0, text
    assert "~%50%It recomputes some activations during the backward pass" in text
    assert "~%-50%It shrinks the optimizer states" in text
    assert "~%50%Adam\n~%50%SGD\n~%-50%ReLU" in text
    exported = shape("gift", text)
    assert exported == shape("gift", source.read_text(encoding="utf-8"))
    # Aiken and CSV have one right answer per question: the select-all ones are left out.
    status, text, err = run(capsys, "export", "multi", "--format", "csv", "--content", str(content))
    assert status == 0 and "select-all questions need GIFT" in err and "2 questions left out" in err
    # the question ids (the quiz's title, "Checkpointing facts", is on the first row)
    assert ",facts," not in text and ",weighted," in text


def test_gift_numerical_imports_as_kind_number_and_exports_back(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FORMATS / "numerical.gift"
    status, out, _ = run(
        capsys, "import", str(source), "--format", "gift", "--out", str(content), "--id", "num"
    )
    assert status == 0, out
    assert "numerical.gift:10: note: numerical answers left out" in out
    written = (content / "quizzes" / "num.yaml").read_text(encoding="utf-8")
    assert "kind: number" in written and 'answer: {value: "0.5", tolerance: "0.05"}' in written
    quiz = load_catalog(content).quiz("num")
    assert quiz is not None
    assert [q.kind for q in quiz.questions] == [QuestionKind.NUMBER] * 4
    assert quiz.questions[2].number == NumberAnswer(low=0.3, high=0.34)
    status, text, err = run(capsys, "export", "num", "--format", "gift", "--content", str(content))
    assert status == 0 and "{\n#0.5:0.05\n####" in text and "{\n#0.3..0.34\n####" in text, text
    assert shape("gift", text) == [row for row in shape("gift", source.read_text(encoding="utf-8"))]
    # Aiken and CSV have only options: the number questions are left out, and said so.
    status, text, err = run(capsys, "export", "num", "--format", "aiken", "--content", str(content))
    assert status == 0 and "number and select-all questions need GIFT" in err
    assert "4 questions left out" in err


MIXED_GIFT = """\
::sum::How much is 2 + 2? {=Four ~Five ~Three ####Two and two make four.}

::essay::Explain why the sky is blue. {}

::capital::Which city is the capital of Senegal? {=Dakar ~Saint-Louis ~Thiès ####Since 1960.}
"""


def test_the_cli_and_an_upload_follow_one_rule_for_an_unsupported_question(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An essay question in a Moodle export is left out and named by its line; the rest is kept
    and the import succeeds, in `content import` as in a chat upload (`importer.SKIP_RULE`).
    The CLI used to exit 1 ("FAILED: 1 skipped") while writing the file, the upload refused it."""
    from bot.content.uploads import check_upload

    source = tmp_path / "mixed.gift"
    source.write_text(MIXED_GIFT, encoding="utf-8")
    status, out, _ = run(capsys, "import", str(source), "--format", "gift", "--out", str(content),
                         "--guide", "demo")  # fmt: skip
    assert "mixed.gift:3: skipped: essay question" in out
    assert "OK: 1 skipped, 0 checker errors" in out, out
    assert status == 0
    assert [len(q.questions) for q in load_catalog(content)] == [2]
    uploaded = check_upload("mixed.gift", MIXED_GIFT.encode(), content)
    assert uploaded.quiz is not None and len(uploaded.quiz.questions) == 2
    assert [(p.line, p.code) for p in uploaded.problems if p.code == "skipped"] == [(3, "skipped")]


def test_an_import_without_guide_uses_no_unrelated_default(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GIFT, Aiken and CSV name no guide: with several guides the import refuses, naming them,
    and writes nothing; `--guide` picks one; a content with a single guide uses it, and says so."""
    guides = content / "guides.yaml"
    guides.write_text(
        guides.read_text(encoding="utf-8")
        + "  other:\n    title:\n      en: Other\n    url: https://docs.pytorch.org/docs/stable/amp.html\n",
        encoding="utf-8",
    )
    args = ["import", str(FORMATS / "optimizers.gift"), "--format", "gift", "--out", str(content)]
    status, _, err = run(capsys, *args)
    assert status == 1
    assert "names no guide" in err and "--guide" in err and "(guides: demo, other)" in err
    assert not (content / "quizzes").exists()
    status, _, err = run(capsys, *args, "--guide", "nope")
    assert status == 1 and "no guide 'nope' in guides.yaml (guides: demo, other)" in err
    status, out, _ = run(capsys, *args, "--guide", "other")
    assert status == 0, out
    written = (content / "quizzes" / "optimizer-basics.yaml").read_text(encoding="utf-8")
    assert "guide: other" in written


def test_a_single_guide_is_used_and_named(
    content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["import", str(FORMATS / "optimizers.gift"), "--format", "gift", "--out", str(content)]
    status, out, _ = run(capsys, *args)
    assert status == 0, out
    assert "note: guide: demo (the only one in guides.yaml)" in out


def test_the_csv_export_counts_questions_left_out_not_rows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 28 #37: the note counted one per language row (6 for 2 questions in en, fr, wo)."""
    shipped = Path(__file__).resolve().parents[2] / "content"
    status, _, err = run(
        capsys, "export", "gradient-accumulation", "--format", "csv", "--content", str(shipped)
    )
    assert status == 0
    assert "2 questions left out" in err and "6" not in err


def test_a_failing_import_leaves_the_content_directory_as_it_was(
    content: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 28 #13: the imported file stayed in the content directory with its checker error,
    and the bot refuses to start on content with an error. Checked in a copy first now; the
    problems point at the input's lines."""
    source = tmp_path / "long.gift"
    source.write_text(
        "::long:: " + "Why is the sky blue and the grass green? " * 95
        + "{=Light scattering ~Paint on it ~Magic dust ####It scatters light.}\n\n"
        "::fine:: Which call applies gradients? {=step ~zero ~back ####step applies them.}\n",
        encoding="utf-8",
    )  # fmt: skip
    before = sorted(p.name for p in content.rglob("*"))
    status, out, _ = run(capsys, "import", str(source), "--format", "gift", "--out", str(content))
    assert status == 1
    assert "long.gift:1: questions.long.prompt: the rendered question" in out
    assert "FAILED: 0 skipped, 1 checker error; nothing was written to" in out
    assert sorted(p.name for p in content.rglob("*")) == before
    assert check(content).errors == []
    assert "quizbot-import-" not in out


def test_an_empty_required_text_is_not_told_to_be_removed(tmp_path: Path) -> None:
    """Issue 28 #13: "empty text: write the text, or remove the key" on an explanation led to
    "missing required field 'explanation'" once removed. A translation may drop a key."""
    root = tmp_path / "content"
    shutil.copytree(FIXTURES / "valid", root)
    source = root / "quizzes" / "demo.yaml"
    text = source.read_text(encoding="utf-8")
    first = text.index("explanation:")
    end = text.index("\n", first)
    source.write_text(text[:first] + 'explanation: " "' + text[end:], encoding="utf-8")
    messages = [p.message for p in check(root).errors]
    assert "empty text: write the text (this key is required)" in messages, messages


@pytest.mark.parametrize("lang", ["fr", "wo"])
def test_a_translation_round_trips_through_gift(
    lang: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 28 #17: `content export QUIZ --format gift --lang fr`, then `content import ...
    --lang fr --id QUIZ` gives the same translation back. Before: the true/false labels came
    back as 'True'/'False', no-break spaces as plain ones, the number question was skipped for
    its unit, and the description (which GIFT cannot carry) was lost: 3 checker errors."""
    content = tmp_path / "content"
    shutil.copytree(default_content_dir(), content)
    before = load_catalog(content).quiz("gradient-accumulation")
    status, gift, _ = run(capsys, "export", "gradient-accumulation", "--format", "gift",
                          "--lang", lang, "--content", str(content))  # fmt: skip
    assert status == 0
    exported = tmp_path / f"ga.{lang}.gift"
    exported.write_text(gift, encoding="utf-8")
    argv = ["import", str(exported), "--format", "gift", "--lang", lang]
    argv += ["--id", "gradient-accumulation", "--out", str(content), "--force"]
    status, out, _ = run(capsys, *argv)
    assert status == 0, out
    assert check(content).errors == []
    after = load_catalog(content).quiz("gradient-accumulation")
    assert after is not None and before is not None
    assert after.title.get(lang) == before.title.get(lang)
    assert after.description.get(lang) == before.description.get(lang)
    assert after.unreviewed == before.unreviewed
    for old, new in zip(before.questions, after.questions, strict=True):
        assert new.prompt.get(lang) == old.prompt.get(lang)
        assert [o.text.get(lang) for o in new.options] == [o.text.get(lang) for o in old.options]
        assert new.explanation.get(lang) == old.explanation.get(lang)
        assert new.unit.get(lang) == old.unit.get(lang)


def test_a_numerical_question_without_feedback_is_kept_with_a_stand_in(
    content: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A GIFT numerical question without feedback refused the whole file ("explanation: empty
    text"), on an upload as in `content import`, while a choice question without one gets its
    right option as a stand-in: a number question gets its right value."""
    from bot.content.uploads import check_upload

    gift = "::days::How many days are there in a week? {#7}\n\n::pi::Pi, roughly? {#3.14:0.01}\n"
    checked = check_upload("week.gift", gift.encode(), content)
    assert checked.errors == [], checked.errors
    assert checked.quiz is not None
    assert [q.explanation.get("en") for q in checked.quiz.questions] == ["✅ 7", "✅ 3.14 ± 0.01"]
    source = tmp_path / "week.gift"
    source.write_text(gift, encoding="utf-8")
    status, out, _ = run(capsys, "import", str(source), "--format", "gift", "--out", str(content))
    assert status == 0, out
