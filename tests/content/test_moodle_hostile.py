"""Hostile Moodle XML files: each refused (or its bad question left out) with a message and a
line, nothing raised, nothing expanded or fetched. How long each takes and how much memory, is
measured in content/README.md's Moodle XML section, never asserted here."""

from __future__ import annotations

import pytest

from bot.content.formats import Limits, ParseResult, parse_bytes
from tests.content.moodle_kit import DEFAULT, HEAD, HOSTILE, QUESTION, answers, bank


def read(data: bytes, limits: Limits = DEFAULT) -> ParseResult:
    return parse_bytes("moodle", data, "hostile.xml", "en", limits)


def test_a_small_bank_imports() -> None:
    """The baseline every hostile case below differs from by one thing."""
    result = read(bank())
    assert [q.prompt for q in result.quizzes[0].questions] == ["Why?"]
    assert result.problems == []


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_refused_with_its_line(name: str) -> None:
    build, line, said = HOSTILE[name]
    result = read(build())
    assert result.quizzes == []
    (problem,) = result.problems
    assert problem.skipped
    assert (problem.line, said in problem.message) == (line, True), problem.message


def test_ten_thousand_answers_leave_the_question_out_and_keep_the_rest() -> None:
    flood = QUESTION.format(prompt="Flood", answers=answers(10_000))
    fine = QUESTION.format(prompt="Fine", answers=answers(3))
    data = (HEAD + "<quiz>\n" + flood + "\n" + fine + "\n</quiz>\n").encode("utf-8")
    result = read(data)
    assert [q.prompt for q in result.quizzes[0].questions] == ["Fine"]
    (problem,) = result.problems
    assert (problem.line, problem.skipped) == (3, True)
    assert problem.message == "question “Q”: 10000 answers: a question needs 2 to 10"


def test_a_flood_of_questions_stops_at_the_limit() -> None:
    one = QUESTION.format(prompt="Same", answers=answers(2)).replace("\n", "")
    lines = [one.replace("<text>Q</text>", f"<text>Q{i}</text>") for i in range(30)]
    data = (HEAD + "<quiz>\n" + "\n".join(lines) + "\n</quiz>\n").encode("utf-8")
    result = read(data, Limits(max_questions=20))
    assert len(result.quizzes[0].questions) == 20
    (problem,) = result.problems
    assert (problem.line, problem.skipped) == (23, True)
    assert problem.message == "more than 20 questions: the rest is not read"


@pytest.mark.parametrize(
    ("file", "said"),
    [
        ("<file name='p.png' path='/' encoding='base64'>@@not base64@@</file>", "not valid base64"),
        ("", "p.png is not in the file"),
    ],
)
def test_a_broken_picture_is_left_out_and_the_question_kept(file: str, said: str) -> None:
    prompt = '&lt;img src="@@PLUGINFILE@@/p.png"&gt;Look.'
    data = bank(prompt=prompt).replace(b"</text></questiontext>", b"</text>" + file.encode()
                                       + b"</questiontext>")  # fmt: skip
    result = read(data)
    (question,) = result.quizzes[0].questions
    assert (question.prompt, question.image) == ("Look.", None)
    (problem,) = result.problems
    assert said in problem.message and not problem.skipped


def test_a_weight_that_is_no_number_leaves_the_question_out() -> None:
    result = read(bank().replace(b'fraction="100"', b'fraction="lots"'))
    assert result.quizzes == []
    assert [p.message for p in result.problems] == ["question “Q”: answer weight lots is not a "
                                                    "number"]  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("numerical", "10000 answers: quizbot reads at most 10 in a question"),
        ("shortanswer", "10000 answers: quizbot reads at most 10 in a question"),
        ("truefalse", "a true/false question needs two answers, true and false"),
    ],
)
def test_ten_thousand_answers_of_any_type_are_refused_before_being_read(
    kind: str, said: str
) -> None:
    flood = QUESTION.format(prompt="Flood", answers=answers(10_000))
    data = (HEAD + "<quiz>\n" + flood.replace("multichoice", kind) + "\n</quiz>\n").encode()
    result = read(data)
    assert result.quizzes == []
    assert [(p.line, p.message) for p in result.problems] == [(3, f"question “Q”: {said}")]
