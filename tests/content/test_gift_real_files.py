"""GIFT files as teachers have them: saved again in Notepad (a byte-order mark, Windows line
endings), and exported by Moodle 4.x (every question written `[html]`, its answers in `<p>`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.content.exporter import draft
from bot.content.formats import parse, write
from bot.content.formats.draft import FLASHCARD
from bot.content.loader import load_catalog

FORMATS = Path(__file__).parent / "fixtures" / "formats"
SHIPPED = Path(__file__).resolve().parents[2] / "content"


def read(name: str) -> str:
    return (FORMATS / name).read_text(encoding="utf-8")


def test_a_byte_order_mark_before_a_comment_keeps_the_category() -> None:
    result = parse("gift", read("notepad-bom.gift"), "notepad-bom")
    assert [p.skipped for p in result.problems] == []
    (quiz,) = result.quizzes
    assert (quiz.id, quiz.title) == ("training-loop", "Training loop")
    (step,) = quiz.questions
    assert (step.id, step.line) == ("step", 4)


def test_moodle_html_questions_become_our_text_not_tags() -> None:
    result = parse("gift", read("moodle-4-export.gift"), "moodle-4-export")
    (quiz,) = result.quizzes
    assert quiz.title == "Default for Training loop"
    step, lr, size = quiz.questions
    assert step.prompt == "What does `optimizer.step()` do & when?"
    assert [(o.text, o.correct) for o in step.options] == [
        ("It clears the gradients", False),
        ("It updates the weights", True),
    ]
    assert step.explanation.startswith("It applies the update <once> per step.")
    assert "No, that is `zero_grad()`." in step.explanation
    assert lr.prompt == "What happens when the learning rate is far too high?"
    assert [o.text for o in lr.options] == [
        "The loss diverges",
        "Nothing changes",
        "Training converges faster",
    ]
    assert size.explanation == "32 / 8 = 4."
    texts = [q.prompt for q in quiz.questions] + [q.explanation for q in quiz.questions]
    texts += [o.text for q in quiz.questions for o in q.options]
    assert not [t for t in texts if "<p" in t or "&amp;" in t or "dir=" in t]
    # What could not be carried is said, by line: the bold, and the picture GIFT cannot hold.
    notes = [(p.line, p.message) for p in result.problems]
    assert (14, "formatting not kept: strong") in notes
    assert any(line == 14 and "curve.png" in message for line, message in notes)


def test_accented_categories_and_titles_give_readable_ids() -> None:
    text = "$CATEGORY: $course$/top/Révision générale\n\n::Opérations à retenir:: Vrai ? {T}\n"
    (quiz,) = parse("gift", text, "revision", "fr").quizzes
    assert (quiz.id, quiz.title) == ("revision-generale", "Révision générale")
    assert quiz.questions[0].id == "operations-a-retenir"
    (wolof,) = parse("gift", "$CATEGORY: Dajale gradient yi ñeent\n\n::Lëf:: Dëgg ? {T}\n").quizzes
    assert (wolof.id, wolof.questions[0].id) == ("dajale-gradient-yi-neent", "lef")


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
def test_every_shipped_quiz_keeps_its_code_blocks_through_gift(lang: str) -> None:
    """A fenced block's indented lines (Python!) survive export then import: GIFT writes each
    line break as `\\n`, and the spaces after it are the next line's indentation."""
    catalog = load_catalog(SHIPPED)
    for quiz in catalog.quizzes.values():
        source, _ = draft(quiz, lang)
        (back,) = parse("gift", write("gift", [source]), "x", lang).quizzes
        asked = [q for q in source.questions if q.kind != FLASHCARD]
        assert [(q.id, q.prompt) for q in back.questions] == [(q.id, q.prompt) for q in asked]
        assert [q.explanation for q in back.questions] == [q.explanation for q in asked]


def test_true_false_feedback_puts_the_right_answers_first() -> None:
    """Moodle's GIFT true/false is `{TRUE#feedback if wrong#feedback if right####general}`
    (qformat_gift: split_truefalse_comment gives 'wrong', then 'right'). quizbot's one
    explanation reads as for a choice question: general, the right answer's, then the wrong's."""
    text = "::tf::[html]<p>Adam is an optimizer.</p>{TRUE#<p>No: it is one.</p>#<p>Yes.</p>}\n"
    (tf,) = parse("gift", text, "x").quizzes[0].questions
    assert tf.explanation == "Yes. No: it is one."
    general = "::tf:: Adam is an optimizer. {T#No: it is one.#Yes.####Adam updates weights.}\n"
    (tf,) = parse("gift", general, "x").quizzes[0].questions
    assert tf.explanation == "Adam updates weights. Yes. No: it is one."
