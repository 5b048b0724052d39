"""Every check has a broken fixture; the checker must name its file, line and key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.cli.content import main
from bot.content import ContentError, check, format_report, load_catalog
from bot.core.kinds import NumberAnswer, QuestionKind

FIXTURES = Path(__file__).parent / "fixtures"

# fixture, file in it, line, key, words the author reads
ERRORS = [
    ("yaml-syntax", "quizzes/demo.yaml", 12, "", "must be quoted"),
    ("unknown-key", "quizzes/demo.yaml", 17, "questions.q2.promt", "did you mean 'prompt'?"),
    ("missing-field", "quizzes/demo.yaml", 16, "questions.q2.explanation", "missing required"),
    ("duplicate-quiz-id", "quizzes/demo2.yaml", 2, "id", "duplicate quiz id 'demo'"),
    ("duplicate-question-id", "quizzes/demo.yaml", 16, "questions.q1", "duplicate question id"),
    ("duplicate-option-id", "quizzes/demo.yaml", 20, "questions.q2.options.a", "duplicate option"),
    ("duplicate-guide-id", "guides.yaml", 8, "guides.demo", "duplicate guide id 'demo'"),
    ("unknown-guide", "quizzes/demo.yaml", 3, "guide", "unknown guide path 'optimisers'"),
    ("answer-not-an-option", "quizzes/demo.yaml", 14, "questions.q1.answer", "names no option"),
    ("answer-several", "quizzes/demo.yaml", 21, "questions.q2.answer", "several correct"),
    ("answer-empty", "quizzes/demo.yaml", 21, "questions.q2.answer", "no correct option"),
    ("true-false-options", "quizzes/demo.yaml", 19, "questions.q2.options", "true and false"),
    # kind: multiple (issue 17): 2-8 options, one or more correct, at least one wrong, every
    # listed id an option, once; a translation keeps the source's option ids.
    ("multiple-all-correct", "quizzes/demo.yaml", 22, "questions.q2.answer", "every option is"),
    ("multiple-too-many-options", "quizzes/demo.yaml", 19, "questions.q2.options", "2 to 8"),
    ("multiple-answer-twice", "quizzes/demo.yaml", 24, "questions.q2.answer", "listed twice"),
    ("multiple-answer-empty", "quizzes/demo.yaml", 24, "questions.q2.answer", "answer: [a, c]"),
    ("multiple-answer-unknown", "quizzes/demo.yaml", 24, "questions.q2.answer", "'z' names no"),
    (
        "multiple-translation-option",
        "quizzes/demo.fr.yaml",
        16,
        "questions.q2.options.e",
        "option 'e' is not in the English source",
    ),
    ("too-few-options", "quizzes/demo.yaml", 18, "questions.q2.options", "1 option: "),
    ("too-many-options", "quizzes/demo.yaml", 18, "questions.q2.options", "11 options: "),
    ("empty-string", "quizzes/demo.yaml", 19, "questions.q2.options.a", "(this key is required)"),
    ("question-too-long", "quizzes/demo.yaml", 10, "questions.q1.prompt", "Telegram message"),
    ("quiz-id-deep-link", "quizzes/demo.yaml", 2, "id", "deep link"),
    ("quiz-id-too-long", "quizzes/demo.yaml", 2, "id", "keep it to 32"),
    (
        "quiz-id-too-long",
        "quizzes/demo.yaml",
        2,
        "id",
        "button data 89 bytes",
    ),  # the longest: an upload's guide button
    ("stale-translation-key", "quizzes/demo.fr.yaml", 16, "questions.q2.options.c", "not in"),
    ("stale-translation-key", "quizzes/demo.fr.yaml", 18, "questions.q3", "not in the English"),
    ("missing-translation", "quizzes/demo.fr.yaml", 11, "questions.q2.explanation", "missing fr"),
    ("missing-translation-file", "quizzes/demo.yaml", 5, "languages[2]", "demo.wo.yaml"),
    ("identical-to-source", "quizzes/demo.fr.yaml", 14, "questions.q2.options.a", "same as"),
    ("translation-has-answer", "quizzes/demo.fr.yaml", 16, "questions.q2.answer", "source only"),
    ("bad-url", "guides.yaml", 7, "guides.demo.url", "not an absolute https URL"),
    ("placeholder-url", "guides.yaml", 6, "guides.demo.url", "placeholder host (www.example.com)"),
    ("orphan-translation", "quizzes/other.fr.yaml", 1, "", "other.yaml not found"),
    ("unclosed-backtick", "quizzes/demo.fr.yaml", 10, "questions.q1.explanation", "backticks"),
    ("missing-guides", "guides.yaml", 1, "", "missing guides.yaml"),
    # kind: number (issue 17): the key, no options, a unit only where the English has one.
    ("number-rules", "quizzes/demo.yaml", 12, "questions.negative.answer", "tolerance -1 is"),
    ("number-rules", "quizzes/demo.yaml", 17, "questions.upside-down.answer", "low (0.4) is above"),
    ("number-rules", "quizzes/demo.yaml", 22, "questions.with-options.options", "no options"),
    ("number-rules", "quizzes/demo.yaml", 34, "questions.choice-with-unit.unit", "only a number"),
    ("number-rules", "quizzes/demo.yaml", 43, "questions.range-and-value.answer", "not both"),
    ("number-rules", "quizzes/demo.fr.yaml", 18, "questions.unit-here.unit", "has no unit"),
    ("number-rules", "quizzes/demo.fr.yaml", 26, "questions.choice-with-unit.unit", "only a"),
    ("number-rules", "quizzes/demo.fr.yaml", 30, "questions.missing-unit.unit", "missing fr"),
    # The seed pages' defects: code names translated, English left mid-translation.
    (
        "seed-wolof-code",
        "quizzes/gradient-checkpointing.wo.yaml",
        8,
        "questions.pytorch-api.options.a",
        "`torch.utils.checkpoint` looks translated",
    ),
    (
        "seed-wolof-code",
        "quizzes/gradient-checkpointing.wo.yaml",
        9,
        "questions.pytorch-api.options.b",
        "changed to `torch.nn.Bàyyi`",
    ),
    (
        "seed-wolof-code",
        "quizzes/gradient-checkpointing.wo.yaml",
        10,
        "questions.pytorch-api.options.c",
        "without backticks",
    ),
    (
        "seed-english-leftover",
        "quizzes/gradient-checkpointing.wo.yaml",
        14,
        "questions.backward-region.prompt",
        "same as the English",
    ),
    (
        "seed-english-leftover",
        "quizzes/gradient-checkpointing.wo.yaml",
        16,
        "questions.backward-region.options.a",
        "same as the English",
    ),
]

# Reported, but the content still loads.
WARNINGS = [
    ("glossary", "quizzes/demo.fr.yaml", 14, "questions.q2.options.a", "write 'gradient'"),
    ("partial-translation", "quizzes/demo.fr.yaml", 1, "", "4 of 10 strings not translated"),
    ("giveaway", "quizzes/demo.yaml", 19, "questions.q2.options.b", "only longest one (32"),
    ("duplicate-prompt", "quizzes/demo.yaml", 16, "questions.q2.prompt", "same prompt as"),
    ("popup-cut", "quizzes/demo.yaml", 21, "questions.q2.explanation", "group popup has room"),
    ("popup-cut", "quizzes/demo.fr.yaml", 15, "questions.q2.explanation", "first sentence is 204"),
]


def _find(
    fixture: str, file: str, line: int, key: str, words: str, errors: bool
) -> tuple[bool, str]:
    report = check(FIXTURES / fixture)
    problems = report.errors if errors else report.warnings
    target = (FIXTURES / fixture / file).resolve()
    return any(
        p.file.resolve() == target and p.line == line and p.key == key and words in p.message
        for p in problems
    ), format_report(report)


@pytest.mark.parametrize(("fixture", "file", "line", "key", "words"), ERRORS)
def test_error_names_file_line_and_key(
    fixture: str, file: str, line: int, key: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    found, text = _find(fixture, file, line, key, words, errors=True)
    assert found, text
    assert main(["check", str(FIXTURES / fixture)]) == 1
    assert f"{file}:{line}: " in capsys.readouterr().out


@pytest.mark.parametrize(("fixture", "file", "line", "key", "words"), WARNINGS)
def test_warning_is_reported_and_content_still_loads(
    fixture: str, file: str, line: int, key: str, words: str
) -> None:
    found, text = _find(fixture, file, line, key, words, errors=False)
    assert found, text
    assert not check(FIXTURES / fixture).errors
    assert main(["check", str(FIXTURES / fixture)]) == 0


def test_partly_english_string_is_a_warning() -> None:
    found, text = _find(
        "seed-english-leftover",
        "quizzes/gradient-checkpointing.wo.yaml",
        17,
        "questions.backward-region.options.b",
        "looks partly English",
        errors=False,
    )
    assert found, text


def test_every_fixture_is_exercised() -> None:
    # formats/ holds import files (GIFT, Aiken, CSV): tests/content/test_formats.py uses them.
    used = {case[0] for case in ERRORS + WARNINGS}
    used |= {"valid", "formats", "number-valid", "multiple-valid"}
    assert {d.name for d in FIXTURES.iterdir() if d.is_dir()} == used


def test_load_catalog_refuses_broken_content_with_the_same_messages() -> None:
    with pytest.raises(ContentError) as caught:
        load_catalog(FIXTURES / "answer-several")
    text = str(caught.value)
    assert text.startswith("1 content error:")
    assert "quizzes/demo.yaml:21: questions.q2.answer: several correct options" in text
    assert [p.key for p in caught.value.problems] == ["questions.q2.answer"]


def test_valid_fixture_loads_with_fallback_free_texts() -> None:
    catalog = load_catalog(FIXTURES / "valid")
    quiz = catalog.quiz("demo")
    assert quiz is not None
    assert quiz.languages == ("en", "fr")
    assert [q.correct for q in quiz.questions] == [1, 1]
    assert quiz.questions[1].options[1].text.values == {"en": "Adam", "fr": "Adam"}


def test_partial_translation_falls_back_to_english() -> None:
    quiz = load_catalog(FIXTURES / "partial-translation").quiz("demo")
    assert quiz is not None
    assert quiz.languages == ("en",)
    first, second = quiz.questions
    assert first.prompt.has("fr")
    assert not second.prompt.has("fr")
    assert second.prompt.get("fr") == second.prompt.get("en")


def test_true_false_question_loads_with_its_kind(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "true-false-options", tmp_path / "c")
    for name in ("demo.yaml", "demo.fr.yaml"):
        path = tmp_path / "c" / "quizzes" / name
        text = path.read_text("utf-8").replace("yes:", "true:").replace("no:", "false:")
        for label, own in {"Yes": "True", "No": "False", "Oui": "Vrai", "Non": "Faux"}.items():
            text = text.replace(f'"{label}"', f'"{own}"')
        path.write_text(text.replace('answer: "yes"', 'answer: "true"'), "utf-8")
    quiz = load_catalog(tmp_path / "c").quiz("demo")
    assert quiz is not None
    single, true_false = quiz.questions
    assert single.kind is QuestionKind.SINGLE
    assert true_false.kind is QuestionKind.TRUE_FALSE
    assert [o.id for o in true_false.options] == ["true", "false"] and true_false.correct == 0
    assert true_false.options[1].text.get("fr") == "Faux"


def test_number_questions_load_with_their_key_and_unit_per_language() -> None:
    quiz = load_catalog(FIXTURES / "number-valid").quiz("demo")
    assert quiz is not None
    memory, seconds = quiz.questions
    assert memory.kind is QuestionKind.NUMBER and memory.options == ()
    assert memory.number == NumberAnswer(value=2, tolerance=0.1, unit="GB")
    assert (memory.unit.get("en"), memory.unit.get("fr")) == ("GB", "Go")
    assert seconds.number == NumberAnswer(low=0.3, high=0.34)
    assert not seconds.unit.has("en")


def test_multiple_question_loads_with_its_set_of_correct_options() -> None:
    quiz = load_catalog(FIXTURES / "multiple-valid").quiz("demo")
    assert quiz is not None
    single, multiple = quiz.questions
    assert single.kind is QuestionKind.SINGLE and single.key == {1}
    assert multiple.kind is QuestionKind.MULTIPLE
    assert [o.id for o in multiple.options] == ["a", "b", "c", "d"]
    assert multiple.key == {1, 2} and multiple.correct == 1
    assert multiple.options[2].text.get("fr") == "SGD avec momentum"


def test_several_answers_on_a_single_question_suggest_the_multiple_kind() -> None:
    found, text = _find(
        "answer-several", "quizzes/demo.yaml", 21, "questions.q2.answer", "kind: multiple", True
    )
    assert found, text
