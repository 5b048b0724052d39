"""Flashcards (kind: flashcard) in the content format: a flashcard file checks and loads (front,
back, translations), what a flashcard cannot have is an error at its line, the CSV layout
imports and exports them, the YAML writer writes them, GIFT and Aiken say by question id that
they have none, and GIFT's empty answer block says flashcards need YAML or CSV."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.cli.content import main
from bot.content import check, format_report, load_catalog
from bot.content.formats import parse
from bot.content.uploads import check_upload
from bot.core.kinds import QuestionKind

FIXTURES = Path(__file__).parent / "fixtures"

CONTENT = Path(__file__).resolve().parents[2] / "content"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "quiz.yaml"

SOURCE = """\
id: cards
guide: {guide}
level: beginner
languages: [en, fr]
title: "Cards"
description: "A flashcard and a question."
questions:
  week:
    kind: flashcard
    prompt: "How many days are there in a week?"
    explanation: "Seven: Monday to Sunday."
  sum:
    prompt: "How much is 2 + 2?"
    options:
      a: "Four"
      b: "Five"
    answer: a
    explanation: "Two and two make four."
"""
FRENCH = """\
title: "Cartes"
description: "Une carte mémoire et une question."
questions:
  week:
    prompt: "Combien de jours compte une semaine\u202f?"
    explanation: "Sept\u202f: du lundi au dimanche."
  sum:
    prompt: "Combien font 2 + 2\u202f?"
    options:
      a: "Quatre"
      b: "Cinq"
    explanation: "Deux et deux font quatre."
"""


@pytest.fixture
def content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    (root / "quizzes").mkdir(parents=True)
    shutil.copy(FIXTURES / "valid" / "guides.yaml", root / "guides.yaml")
    guide = next(
        line.strip().rstrip(":")
        for line in (root / "guides.yaml").read_text("utf-8").splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    )
    (root / "quizzes" / "cards.yaml").write_text(SOURCE.format(guide=guide), "utf-8")
    (root / "quizzes" / "cards.fr.yaml").write_text(FRENCH, "utf-8")
    return root


def test_a_flashcard_file_checks_and_loads_with_its_translation(content: Path) -> None:
    report = check(content)
    assert report.errors == [], format_report(report)
    card = load_catalog(content).quiz("cards").questions[0]
    assert card.kind is QuestionKind.FLASHCARD and card.flashcard
    assert card.options == () and card.correct == 0
    assert card.prompt.get("fr") == "Combien de jours compte une semaine\u202f?"
    assert card.explanation.get("fr") == "Sept\u202f: du lundi au dimanche."


@pytest.mark.parametrize(
    ("extra", "key", "words"),
    [
        ('    options:\n      a: "Seven"\n', "options", "a flashcard has no options"),
        ("    answer: a\n", "answer", "a flashcard has no answer"),
        ('    unit: "days"\n', "unit", "only a number question has a unit"),
    ],
)
def test_what_a_flashcard_cannot_have_is_an_error_at_its_line(
    content: Path, extra: str, key: str, words: str
) -> None:
    path = content / "quizzes" / "cards.yaml"
    text = path.read_text("utf-8").replace(
        '    explanation: "Seven: Monday to Sunday."\n',
        '    explanation: "Seven: Monday to Sunday."\n' + extra,
    )
    path.write_text(text, "utf-8")
    report = check(content)
    [error] = [
        e
        for e in report.errors
        if e.file.name == "cards.yaml" and e.key.startswith(f"questions.week.{key}")
    ]
    assert words in error.message
    assert error.line == 12  # the line of the key, right after the back


def test_a_question_of_another_kind_still_needs_its_answer(content: Path) -> None:
    path = content / "quizzes" / "cards.yaml"
    path.write_text(path.read_text("utf-8").replace("    answer: a\n", ""), "utf-8")
    text = format_report(check(content))
    assert "questions.sum.answer" in text and "no correct option" in text


def test_the_example_upload_has_a_flashcard_and_checks() -> None:
    checked = check_upload("quiz.yaml", EXAMPLE.read_bytes(), CONTENT)
    assert [p for p in checked.errors] == []
    assert checked.quiz is not None
    assert [q.kind for q in checked.quiz.questions][-1] is QuestionKind.FLASHCARD


CSV = """\
title,description,id,language,prompt,A,B,answer,explanation
Cards,A flashcard and a question.,sum,en,How much is 2 + 2?,Four,Five,A,Two and two make four.
,,week,en,How many days are there in a week?,,,flashcard,Seven: Monday to Sunday.
,,bad,en,A card with options?,Yes,No,flashcard,It has options.
"""


def test_the_csv_layout_carries_flashcards_and_says_what_it_cannot() -> None:
    result = parse("csv", CSV, "cards")
    [quiz] = result.quizzes
    card = next(q for q in quiz.questions if q.id == "week")
    assert (card.kind, card.options, card.explanation) == (
        "flashcard",
        (),
        "Seven: Monday to Sunday.",
    )
    [problem] = result.problems
    assert (problem.line, problem.skipped) == (4, True)
    assert "a flashcard has no options" in problem.message


def test_import_writes_a_flashcard_and_export_keeps_it_in_csv_only(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "cards.csv"
    source.write_text(CSV.rsplit("\n", 2)[0] + "\n", "utf-8")
    out = tmp_path / "imported"
    shutil.copytree(content, out)
    shutil.rmtree(out / "quizzes")
    status = main(["import", str(source), "--format", "csv", "--out", str(out), "--id", "cards"])
    assert status == 0
    written = (out / "quizzes" / "cards.yaml").read_text("utf-8")
    assert "kind: flashcard" in written
    report = check(out)
    assert report.errors == [], format_report(report)
    capsys.readouterr()

    assert main(["export", "cards", "--format", "csv", "--content", str(out)]) == 0
    csv_out = capsys.readouterr().out
    assert ",week,en,How many days are there in a week?,,,flashcard," in csv_out
    for fmt in ("gift", "aiken"):
        assert main(["export", "cards", "--format", fmt, "--content", str(out)]) == 0
        captured = capsys.readouterr()
        assert "How many days" not in captured.out
        assert f"note: {fmt} has no flashcards: question week left out" in captured.err
    # Binary formats say so too: QTI leaves it out; Moodle XML keeps it as a description.
    said = {
        "qti": "note: qti has no flashcards: question week left out",
        "moodle": "note: Moodle has no flashcards: question week written as a description (its "
        "text the front, its general feedback the back), tagged quizbot-flashcard",
    }
    for fmt, note in said.items():
        target = tmp_path / f"cards.{fmt}"
        args = ["export", "cards", "--format", fmt, "--content", str(out), "--out", str(target)]
        assert main(args) == 0
        assert note in capsys.readouterr().err


def test_gift_says_by_line_that_it_has_no_flashcards() -> None:
    result = parse("gift", "::q1::2 + 2? {=4 ~5}\n\n::card::Days in a week? {}\n", "x")
    [problem] = result.problems
    assert problem.line == 3 and problem.skipped
    assert "GIFT has no flashcards" in problem.message and "kind: flashcard" in problem.message


def test_a_flashcard_with_pictures_on_its_front_and_back_checks_clean(content: Path) -> None:
    (content / "media").mkdir()
    shutil.copy(CONTENT / "media" / "sqrt-n-checkpoints.png", content / "media" / "week.png")
    for name, alt in (("cards.yaml", "A calendar week"), ("cards.fr.yaml", "Une semaine")):
        path = content / "quizzes" / name
        back = (
            "Seven: Monday to Sunday."
            if name == "cards.yaml"
            else "Sept\u202f: du lundi au dimanche."
        )
        file = "file: week.png, " if name == "cards.yaml" else ""
        text = path.read_text("utf-8").replace(
            f'    explanation: "{back}"\n',
            f'    explanation: "{back}"\n'
            f'    image: {{{file}alt: "{alt}"}}\n'
            f'    explanation_image: {{{file}alt: "{alt}"}}\n',
        )
        path.write_text(text, "utf-8")
    report = check(content)
    assert report.errors == [], format_report(report)
    card = load_catalog(content).quiz("cards").questions[0]
    assert card.image is not None and card.explanation_image is not None
    assert card.image.alt.get("fr") == "Une semaine"


def test_a_flashcard_picture_without_its_alt_text_in_french_is_still_an_error(
    content: Path,
) -> None:
    (content / "media").mkdir()
    shutil.copy(CONTENT / "media" / "sqrt-n-checkpoints.png", content / "media" / "week.png")
    path = content / "quizzes" / "cards.yaml"
    text = path.read_text("utf-8").replace(
        '    explanation: "Seven: Monday to Sunday."\n',
        '    explanation: "Seven: Monday to Sunday."\n'
        '    image: {file: week.png, alt: "A calendar week"}\n',
    )
    path.write_text(text, "utf-8")
    errors = [e for e in check(content).errors if "image" in e.key]
    assert errors and all(e.file.name == "cards.fr.yaml" for e in errors), errors
