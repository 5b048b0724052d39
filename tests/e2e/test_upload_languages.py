"""An upload's problems in the admin's own language (issue 28, newcomer walk items 2, 5, 8):
every problem of a file in one answer, each with its line and its place named in words (not a
YAML key path), and the same rule as `quizbot content import` for questions a format cannot
carry: left out, named by line, the rest kept."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import Harness, running
from tests.e2e.uploads_kit import BROKEN, EXPECTED, group_with_admin

ENGLISH = ["missing required field", "names no option", "a question needs", "questions.sum"]


@pytest.fixture
async def h(tmp_path: Path, transport: str) -> AsyncIterator[Harness]:
    async with running(tmp_path, transport=transport) as harness:
        yield harness


@pytest.mark.parametrize("lang", ["fr", "wo"])
async def test_every_problem_of_a_file_comes_back_at_once_in_the_admins_language(
    h: Harness, lang: str
) -> None:
    group, admin = await group_with_admin(h, lang)
    mark = group.mark()
    await admin.send_document("broken.yaml", BROKEN.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "broken.yaml" in m.text, after=mark, timeout=30)
    for line in EXPECTED[lang]:
        assert line in shown.text, shown.text
    for english in ENGLISH:
        assert english not in shown.text, shown.text
    later = [m.text for m in group.messages[group.messages.index(shown) + 1 :]]
    assert not any("broken.yaml" in text for text in later)  # one message holds them all


MIXED_GIFT = """\
::sum::How much is 2 + 2? {=Four ~Five ~Three}

::essay::Explain why the sky is blue. {}

::capital::Which city is the capital of Senegal? {=Dakar, the capital since 1960 ~Thiès ~Touba}
"""


async def test_a_gift_upload_with_an_unsupported_question_keeps_the_others(h: Harness) -> None:
    """A Moodle export with one essay question was refused whole ("this quiz cannot be used"),
    while `quizbot content import` of the same file skipped it and kept the rest."""
    group, admin = await group_with_admin(h, "fr")
    mark = group.mark()
    await admin.send_document("mixed.gift", MIXED_GIFT.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "mixed.gift" in m.text, after=mark, timeout=30)
    assert "mixed.gift est un quiz valide" in shown.text, shown.text
    assert "2 questions" in shown.text
    assert "Ligne 3\u00a0: question laissée de côté\u00a0:" in shown.text, shown.text
    # the checker's warnings too, in French, with the place in words (line 5: `capital`)
    assert (
        "Ligne 5\u00a0: question «\u202fcapital\u202f», option A\u00a0: la bonne option est la "
        "seule plus longue"
    ) in shown.text, shown.text


def _many_broken(count: int) -> tuple[str, list[int]]:
    """A quiz whose every question's answer names no option; the line of each answer."""
    lines = ["id: many", "guide: gradient-checkpointing", "level: beginner", "languages: [en]",
             'title: "Many"', 'description: "Broken answers."', "questions:"]  # fmt: skip
    answers = []
    for n in range(1, count + 1):
        lines += [f"  q{n}:", f'    prompt: "Question {n}?"', "    options:", '      a: "Yes"',
                  '      b: "No"']  # fmt: skip
        lines.append("    answer: z")
        answers.append(len(lines))
        lines.append(f'    explanation: "Because {n}."')
    return "\n".join(lines) + "\n", answers


async def test_thirty_problems_come_back_in_one_message(h: Harness) -> None:
    """The chat once showed 15 problems and "…and 15 more": the teacher fixed them in rounds."""
    group, admin = await group_with_admin(h, "fr")
    text, answer_lines = _many_broken(30)
    mark = group.mark()
    await admin.send_document("many.yaml", text.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "many.yaml" in m.text, after=mark, timeout=30)
    for n, line in enumerate(answer_lines, start=1):
        said = f"• Ligne {line}\u00a0: question {n}, réponse\u00a0: la réponse «\u202fz\u202f»"
        assert said in shown.text, (line, shown.text)
    assert "autres problèmes" not in shown.text


async def test_a_partial_csv_translation_gets_advice_for_the_csv_it_came_in(h: Harness) -> None:
    """Issue 28 #9: an uploaded CSV whose French rows lack the title and description was told
    to "complete it, then add fr to languages in quiz.yaml", a file the uploader never had."""
    group, admin = await group_with_admin(h, "en")
    example = Path(__file__).resolve().parents[2] / "examples" / "quiz.csv"
    partial = example.read_text(encoding="utf-8").replace(
        "Sommes et semaines,Deux questions dans le format CSV de quizbot.", ","
    )
    mark = group.mark()
    await admin.send_document("weeks.csv", partial.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "weeks.csv" in m.text, after=mark, timeout=30)
    assert "is a sound quiz" in shown.text and "Languages: English" in shown.text, shown.text
    assert ".yaml" not in shown.text and "languages in" not in shown.text, shown.text
    assert "French translation: incomplete" in shown.text, shown.text
    assert "fill in its title, description" in shown.text, shown.text


NO_OPTIONS = """\
id: empty
guide: gradient-checkpointing
level: beginner
languages: [en]
title: "Empty"
description: "A question whose options were lost."
questions:
  sum:
    prompt: "How much is 2 + 2?"
    options: {}
    answer: a
    explanation: "Two and two make four."
"""


async def test_a_count_of_options_is_worded_by_the_readers_plural_rule(h: Harness) -> None:
    """French counts 0 in the singular ("0 option"), English in the plural: the checker chose
    the form by `count == 1`, English's rule, so a French admin read "0 options"."""
    group, admin = await group_with_admin(h, "fr")
    mark = group.mark()
    await admin.send_document("empty.yaml", NO_OPTIONS.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "empty.yaml" in m.text, after=mark, timeout=30)
    assert "0 option, or une question en a de 2 à" in shown.text, shown.text
