"""CSV as spreadsheets save it: French Excel's "CSV UTF-8 (délimité par des points-virgules)"
separates cells with `;` (the comma is the decimal mark there), with a byte-order mark and
Windows line endings."""

from __future__ import annotations

from pathlib import Path

from bot.content.formats import parse

FORMATS = Path(__file__).parent / "fixtures" / "formats"


def test_french_excel_semicolons_are_read_as_the_layout() -> None:
    text = (FORMATS / "excel-fr.csv").read_text(encoding="utf-8")
    result = parse("csv", text, "excel-fr", "fr")
    assert [p.message for p in result.problems if p.skipped] == []
    (quiz,) = result.quizzes
    assert (quiz.title, quiz.lang) == ("Boucle d’entraînement", "fr")
    step, lr = quiz.questions
    assert [(o.text, o.correct) for o in step.options] == [
        ("optimizer.zero_grad()", False),
        ("optimizer.step()", True),
        ("loss.backward()", False),
    ]
    # A `;` inside a quoted cell, and a quoted line break, stay the cell's own.
    assert step.explanation == "step() les applique ;\nzero_grad() les efface."
    assert lr.options[1].text == "La perte diverge, ou oscille"
    assert (step.line, lr.line) == (2, 4)
