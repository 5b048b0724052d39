"""Quiz drafts -> GIFT text, as Moodle's GIFT importer reads it: a `$CATEGORY` per quiz,
`::id::` titles, explanations as general feedback, several right answers as weights. Apart from
the reader (`gift.py`), which it shares nothing with but the escapes (`gift_units.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.content.formats.draft import MULTIPLE, NUMBER, TRUE_FALSE, DraftOption, DraftQuiz
from bot.content.formats.gift_units import escape
from bot.core.kinds import NumberAnswer


def _weighted(options: Sequence[DraftOption]) -> list[str]:
    """A select-all question as Moodle's multiple-answer form: each right answer weighs
    100/k %, each wrong one -100/k % (k right answers), which Moodle floors at 0 as quizbot
    does: the same partial credit on both sides (bot/core/kinds.py)."""
    share = 100 / sum(o.correct for o in options)
    weight = f"{share:.5f}".rstrip("0").rstrip(".")
    return [f"~%{'' if o.correct else '-'}{weight}%{escape(o.text)}" for o in options]


def write(quizzes: Sequence[DraftQuiz]) -> str:
    """GIFT text: a `$CATEGORY` per quiz, `::id::` titles, explanations as general feedback."""
    out: list[str] = []
    for quiz in quizzes:
        out.append(f"// quizbot quiz {quiz.id} ({quiz.lang})")
        out.append(f"$CATEGORY: {quiz.title.replace('/', '//')}")
        out.append("")
        for question in quiz.questions:
            out.append(f"::{escape(question.id)}::{escape(question.prompt)} {{")
            if question.kind == NUMBER and question.number is not None:
                out.append("#" + _number_text(question.number))
            elif question.kind == TRUE_FALSE:
                # GIFT's own true/false: Moodle shows its True/False, not our option texts.
                out.append("TRUE" if question.options[0].correct else "FALSE")
            elif question.kind == MULTIPLE:
                out += _weighted(question.options)
            else:
                out += [("=" if o.correct else "~") + escape(o.text) for o in question.options]
            if question.explanation:
                out.append("####" + escape(question.explanation))
            out += ["}", ""]
    return "\n".join(out)


def _number_text(key: NumberAnswer) -> str:
    """A key as GIFT writes it: `3.5:0.1`, `64`, `1..5` (repr keeps every digit, `g` drops .0)."""

    def num(value: float) -> str:
        return format(value, ".15g")

    if key.value is not None:
        return num(key.value) + (f":{num(key.tolerance)}" if key.tolerance else "")
    assert key.low is not None and key.high is not None
    return f"{num(key.low)}..{num(key.high)}"
