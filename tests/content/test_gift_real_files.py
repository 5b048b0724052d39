"""GIFT files as teachers have them: saved again in Notepad (a byte-order mark, Windows line
endings), and exported by Moodle 4.x (every question written `[html]`, its answers in `<p>`)."""

from __future__ import annotations

from pathlib import Path

from bot.content.formats import parse

FORMATS = Path(__file__).parent / "fixtures" / "formats"


def read(name: str) -> str:
    return (FORMATS / name).read_text(encoding="utf-8")


def test_a_byte_order_mark_before_a_comment_keeps_the_category() -> None:
    result = parse("gift", read("notepad-bom.gift"), "notepad-bom")
    assert [p.skipped for p in result.problems] == []
    (quiz,) = result.quizzes
    assert (quiz.id, quiz.title) == ("training-loop", "Training loop")
    (step,) = quiz.questions
    assert (step.id, step.line) == ("step", 4)
