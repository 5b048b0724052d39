"""The format parsers and writers on their own: text in, drafts and line-numbered reports out."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from bot.content.formats import Limits, parse, write
from bot.content.formats.draft import DraftOption, DraftQuestion, DraftQuiz
from bot.core.kinds import NumberAnswer

FORMATS = Path(__file__).parent / "fixtures" / "formats"


def read(name: str) -> str:
    return (FORMATS / name).read_text(encoding="utf-8")


def shape(quizzes: list[DraftQuiz]) -> list[tuple[object, ...]]:
    """What a round trip must keep: every question, option, right answer and feedback."""
    return [
        (
            quiz.title,
            q.id,
            q.prompt,
            tuple((o.text, o.correct) for o in q.options),
            q.explanation,
            q.kind,
            q.number,
        )
        for quiz in quizzes
        for q in quiz.questions
    ]


def test_gift_reads_categories_titles_feedback_and_escapes() -> None:
    result = parse("gift", read("optimizers.gift"), "optimizers")
    assert [(q.id, q.title) for q in result.quizzes] == [
        ("optimizer-basics", "Optimizer basics"),
        ("data-loading", "Data/loading"),
    ]
    step, escapes, lr = result.quizzes[0].questions
    assert step.id == "step" and step.line == 4
    assert [o.correct for o in step.options] == [True, False, False]
    # General feedback first, then the right answer's, then a wrong answer's (reported).
    assert step.explanation.startswith("`optimizer.zero_grad()` clears")
    assert "It updates the weights" in step.explanation
    assert "This one only clears the gradients." in step.explanation
    assert escapes.prompt == "In {braces}, what does `a = b` do in Python: compare or assign?"
    assert escapes.options[1].text == "It assigns `b` to `a` # not a comparison"
    assert lr.prompt == "What happens when the learning rate is far too high?"
    assert [o.correct for o in lr.options] == [False, True, False]
    assert [(p.line, p.skipped) for p in result.problems] == [(4, False), (18, False)]
    assert "wrong answer B" in result.problems[0].message
    assert "negative weight" in result.problems[1].message


def test_gift_reports_every_unsupported_kind_by_line() -> None:
    result = parse("gift", read("unsupported.gift"), "unsupported")
    reported = {p.line: p.message for p in result.problems}
    assert all(p.skipped for p in result.problems)
    expected = {
        2: "numerical",
        4: "numerical",
        6: "short-answer",
        8: "matching",
        10: "every answer has a positive weight",
        12: "essay",
        14: "no answer block",
        16: "never closed",
        18: "9 answers: a several-answer question needs 2 to 8",
        20: "no right answer",
        22: "empty",
    }
    assert {line: words for line, words in expected.items() if words in reported[line]} == expected
    assert [q.id for q in result.quizzes[0].questions] == ["ok"]


def test_gift_several_right_answers_become_a_select_all_question() -> None:
    result = parse("gift", read("multiple.gift"), "multiple")
    facts, two, weighted = result.quizzes[0].questions
    assert [q.kind for q in (facts, two, weighted)] == ["multiple", "multiple", "single"]
    assert [o.correct for o in facts.options] == [True, False, True, False]
    assert facts.explanation == "Checkpointing trades compute for activation memory, nothing else."
    assert [o.correct for o in two.options] == [True, True, False]
    # One answer at 100 %: an ordinary single-choice question (negative weights ignored).
    assert [o.correct for o in weighted.options] == [True, False, False]
    reported = [(p.line, p.skipped) for p in result.problems]
    assert reported == [(4, False), (14, False)]
    assert "weights are not kept" in result.problems[0].message
    assert "negative weights ignored" in result.problems[1].message


def test_gift_numerical_value_tolerance_range_and_several_answers() -> None:
    result = parse("gift", read("numerical.gift"), "numerical")
    batch, ratio, seconds, several = result.quizzes[0].questions
    assert [q.kind for q in (batch, ratio, seconds, several)] == ["number"] * 4
    assert all(not q.options for q in (batch, ratio, seconds, several))
    assert batch.number == NumberAnswer(value=64)
    assert batch.explanation == "8 × 4 × 2 = 64."  # general feedback, escapes read
    assert batch.prompt.endswith("2 GPUs: how many samples make one optimizer step?")
    assert ratio.number == NumberAnswer(value=0.5, tolerance=0.05)
    assert seconds.number == NumberAnswer(low=0.3, high=0.34)
    # Several answers: the first full-credit one is kept, the rest reported by line.
    assert several.number == NumberAnswer(value=4)
    assert several.explanation == "A nibble is four bits. Right: half a byte."
    [note] = result.problems
    assert (note.line, note.skipped) == (10, False)
    assert "left out" in note.message and "4:1 (50%)" in note.message


def test_gift_missing_word_keeps_a_blank() -> None:
    result = parse("gift", read("missing-word.gift"), "missing-word")
    (question,) = result.quizzes[0].questions
    assert question.prompt == "Gradient accumulation sums gradients over _____ before each step."
    assert question.options[0].correct and "blank" in result.problems[0].message


@pytest.mark.parametrize(
    ("fmt", "name"),
    [("gift", "optimizers.gift"), ("gift", "numerical.gift"), ("csv", "optimizers.csv")],
)
def test_write_then_parse_keeps_everything(fmt: str, name: str) -> None:
    first = parse(fmt, read(name), "optimizers").quizzes
    again = parse(fmt, write(fmt, first), "optimizers").quizzes
    assert shape(again) == shape(first)


def test_aiken_round_trip_and_errors() -> None:
    first = parse("aiken", read("optimizers.aiken"), "optimizers")
    assert first.problems == []
    (quiz,) = first.quizzes
    assert [q.answer for q in quiz.questions] == [1, 1]
    assert quiz.questions[1].prompt == "What happens when the learning rate is far too high?"
    assert shape(parse("aiken", write("aiken", [quiz]), "optimizers").quizzes) == shape([quiz])
    broken = parse("aiken", read("broken.aiken"), "broken")
    assert [p.line for p in broken.problems] == [1, 6, 11, 20]
    assert all(p.skipped for p in broken.problems)
    assert "several right answers (A, C)" in broken.problems[-1].message  # say why, by line
    assert "kind: multiple" in broken.problems[-1].message
    assert [q.prompt for q in broken.quizzes[0].questions] == ["A good one at last"]


def test_csv_languages_and_errors() -> None:
    result = parse("csv", read("optimizers.csv"), "optimizers")
    assert [(q.lang, len(q.questions)) for q in result.quizzes] == [("en", 2), ("fr", 2)]
    french = result.quizzes[1].questions[1]
    assert french.answer == -1  # left blank in a translation row: the source's answer holds
    broken = parse("csv", read("broken.csv"), "broken")
    assert [(p.line, p.skipped) for p in broken.problems] == [
        (1, True),
        (2, True),
        (3, True),
        (4, True),
        (6, True),
        (7, True),
    ]
    assert "'difficulty'" in broken.problems[0].message
    assert "several right answers (A,C)" in broken.problems[-1].message
    assert [q.id for q in broken.quizzes[0].questions] == ["q4"]


def test_csv_export_neutralises_formulas_and_reads_back_the_same_text() -> None:
    """A quiz CSV opened in a spreadsheet runs no cell as a formula ('-1' or '=SUM(A1)' as an
    option), and the import reads back exactly what was written, apostrophes included."""
    texts = ["-1", "=SUM(A1)", "+33 6", "@home", "'=quoted", "it's 'fine'"]
    options = tuple(DraftOption(t, i == 0) for i, t in enumerate(texts))
    question = DraftQuestion("q1", "=1+1 equals?", options, "-1 is right: @see notes")
    quiz = DraftQuiz("quiz", "quiz", "en", (question,))
    written = write("csv", [quiz])
    cells = [cell for row in csv.reader(io.StringIO(written)) for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")], cells
    assert "''=quoted" in cells and "it's 'fine'" in cells
    (again,) = parse("csv", written, "quiz").quizzes
    assert shape([again]) == shape([quiz])


@pytest.mark.parametrize("fmt", ["gift", "aiken", "csv"])
def test_hostile_input_is_bounded(fmt: str) -> None:
    limits = Limits(max_bytes=1000, max_questions=3)
    too_big = parse(fmt, "x" * 1001, "big", limits=limits)
    assert too_big.quizzes == [] and "1001 bytes" in too_big.problems[0].message
    # Pathological text (no closing brace, thousands of escapes) stays linear and is reported.
    nasty = "::t::" + "\\{" * 20_000 + "{=a ~b" + "~" * 20_000
    result = parse(fmt, nasty, "nasty")
    assert result.problems or result.quizzes == []


def test_question_count_is_bounded() -> None:
    text = "\n\n".join(f"Q{n}? {{=a ~b}}" for n in range(5))
    result = parse("gift", text, "many", limits=Limits(max_questions=3))
    assert len(result.quizzes[0].questions) == 3
    assert "more than 3 questions" in result.problems[-1].message


def test_control_characters_are_removed_and_reported() -> None:
    result = parse("gift", "Bell\x07 here? {=a ~b}", "ctl")
    assert result.quizzes[0].questions[0].prompt == "Bell here?"
    assert "control characters" in result.problems[0].message


def test_gift_true_false_round_trips() -> None:
    result = parse("gift", read("true-false.gift"), "tf")
    assert not result.problems
    sky, grass = result.quizzes[0].questions
    assert (sky.kind, grass.kind) == ("true_false", "true_false")
    assert [(o.text, o.correct) for o in sky.options] == [("True", True), ("False", False)]
    assert [o.correct for o in grass.options] == [False, True]
    assert sky.explanation == "Rayleigh scattering." and grass.explanation == "It is green."
    again = parse("gift", write("gift", result.quizzes), "tf").quizzes[0].questions
    assert [(q.kind, q.answer, q.explanation) for q in again] == [
        (q.kind, q.answer, q.explanation) for q in (sky, grass)
    ]


def test_aiken_with_more_options_than_letters_is_reported_not_raised() -> None:
    """Eleven options (A to K) once raised IndexError: the question is skipped, by line, and
    the rest of the file still read."""
    result = parse("aiken", read("eleven-options.aiken"), "eleven")
    assert [(p.line, p.skipped) for p in result.problems] == [(1, True)]
    assert "11 options: a question needs 2 to 10" in result.problems[0].message
    assert [q.prompt for q in result.quizzes[0].questions] == ["A good one after it"]


@pytest.mark.parametrize("fmt", ["gift", "aiken", "csv"])
def test_option_limits_beyond_the_letters_are_refused(fmt: str) -> None:
    """A caller asking for more options than there are letters is a programming error, said at
    once, rather than an IndexError deep in a parser on some file."""
    with pytest.raises(ValueError, match="at most 10 options"):
        parse(fmt, "Q?\nA. a\nB. b\nANSWER: A\n", "q", limits=Limits(max_options=11))


def test_csv_title_and_description_columns_name_the_quiz_per_language() -> None:
    result = parse("csv", read("titled.csv"), "upload")
    en, fr = result.quizzes
    assert (en.id, en.title, en.description) == (
        "sums-and-capitals",
        "Sums and capitals",
        "Two questions the group wrote.",
    )
    assert (fr.id, fr.lang, fr.title, fr.description) == (
        "sums-and-capitals",
        "fr",
        "Sommes et capitales",
        "Deux questions du groupe.",
    )
    # a second, different title in the same language: the first is kept, and it is said
    assert [(p.line, p.skipped) for p in result.problems] == [(5, False)]
    assert "another title than line 4's" in result.problems[0].message


def test_csv_without_title_columns_keeps_the_name_it_is_given() -> None:
    """Files written before the title column still parse: the title is the file's name."""
    result = parse("csv", read("optimizers.csv"), "my-optimizers")
    assert {(q.id, q.title, q.description) for q in result.quizzes} == {
        ("my-optimizers", "my-optimizers", "")
    }


def test_csv_export_writes_the_titles_and_reads_them_back() -> None:
    first = parse("csv", read("titled.csv"), "upload").quizzes
    again = parse("csv", write("csv", first), "other-name").quizzes
    assert [(q.id, q.lang, q.title, q.description) for q in again] == [
        (q.id, q.lang, q.title, q.description) for q in first
    ]
    assert shape(again) == shape(first)


def test_aiken_blank_lines_before_an_option_or_the_answer_are_ignored() -> None:
    """A blank line before `ANSWER:` (or between options), common in teachers' files, skipped
    the whole question with two messages that contradicted each other; Moodle's own importer
    ignores it. A question with no `ANSWER:` before the next one is still reported."""
    text = (
        "Which call applies the gradients?\n"
        "\n"
        "A. optimizer.zero_grad()\n"
        "\n"
        "B. optimizer.step()\n"
        "\n"
        "ANSWER: B\n"
        "\n"
        "No answer line here\n"
        "A. one\n"
        "B. two\n"
        "\n"
        "Which one is right?\n"
        "A. this\n"
        "B. that\n"
        "ANSWER: A\n"
    )
    result = parse("aiken", text, "blank")
    assert [q.prompt for q in result.quizzes[0].questions] == [
        "Which call applies the gradients?",
        "Which one is right?",
    ]
    assert [q.answer for q in result.quizzes[0].questions] == [1, 0]
    assert [(p.line, p.skipped) for p in result.problems] == [(9, True)]
    assert "no 'ANSWER:' line after the options" in result.problems[0].message


def test_aiken_with_lowercase_option_letters_is_read_as_its_teacher_meant() -> None:
    """`a)` instead of `A)`, as word processors and many teachers write it: the question was
    skipped as "0 options", a cause the teacher could not see. Lowercase letters are read as
    their capitals (the checks that follow, in order and an ANSWER naming one, still apply)."""
    text = (
        "Which call applies the gradients?\n"
        "a) optimizer.zero_grad()\n"
        "b) optimizer.step()\n"
        "ANSWER: b\n"
        "\n"
        "Out of order?\n"
        "a. one\n"
        "c. two\n"
        "ANSWER: A\n"
    )
    result = parse("aiken", text, "lower")
    [question] = result.quizzes[0].questions
    assert [(o.text, o.correct) for o in question.options] == [
        ("optimizer.zero_grad()", False),
        ("optimizer.step()", True),
    ]
    assert [(p.line, p.skipped) for p in result.problems] == [(6, True)]
    assert "in order (found AC)" in result.problems[0].message
