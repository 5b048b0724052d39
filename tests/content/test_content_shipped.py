"""The shipped quizzes: clean, complete in en/fr/wo, and built into the core catalog."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

from bot.cli.content import main
from bot.content import check, format_report, load_catalog
from bot.core.kinds import QuestionKind
from bot.core.markup import code_spans, split_code
from bot.core.models import Level

CONTENT = Path(__file__).resolve().parents[2] / "content"
LANGS = ("en", "fr", "wo")
# The shipped quizzes and their levels (issue 29: six quizzes, three levels, so /practice's
# level filter has something to choose from).
QUIZZES = {
    "data-parallelism": Level.INTERMEDIATE,
    "gradient-accumulation": Level.INTERMEDIATE,
    "gradient-checkpointing": Level.INTERMEDIATE,
    "mixed-precision": Level.INTERMEDIATE,
    "sharding-memory": Level.ADVANCED,
    "training-loop": Level.BEGINNER,
}


def test_shipped_content_is_clean_and_complete() -> None:
    report = check(CONTENT)
    assert report.problems == [], format_report(report)
    rows = {row.lang: row for row in report.languages()}
    assert tuple(rows) == LANGS
    for row in rows.values():
        assert row.declared and row.complete
        assert row.quizzes_complete == row.quizzes == len(QUIZZES)
    text = format_report(report)
    assert text.endswith("OK: 0 errors, 0 warnings")
    assert "Coverage (6 quizzes):" in text


def test_cli_check_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(CONTENT)]) == 0
    assert "wo        yes       6/6" in capsys.readouterr().out


def test_python_dash_m_runs_the_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["bot", "content", "check", str(CONTENT)])
    # An earlier test in this process may have imported bot.__main__: runpy warns then.
    monkeypatch.delitem(sys.modules, "bot.__main__", raising=False)
    with pytest.raises(SystemExit) as done:
        runpy.run_module("bot", run_name="__main__", alter_sys=True)
    assert done.value.code == 0
    assert "OK: 0 errors" in capsys.readouterr().out


def test_catalog_holds_the_quizzes_in_three_languages() -> None:
    catalog = load_catalog(CONTENT)
    assert list(catalog.quizzes) == list(QUIZZES)
    assert list(catalog.guides)[:2] == ["gradient-checkpointing", "gradient-accumulation"]
    assert set(catalog.guides) == set(QUIZZES)
    assert set(QUIZZES.values()) == set(Level)
    for quiz in catalog:
        assert quiz.level is QUIZZES[quiz.id]
        assert 10 <= len(quiz) <= 12
        # Every kind but flashcards, which a small example carries (examples/quiz.yaml): e2e
        # tests count the shipped quizzes' questions, and groups skip flashcards.
        kinds = set(QuestionKind) - {QuestionKind.FLASHCARD}
        assert {question.kind for question in quiz.questions} == kinds
        assert quiz.guide.id == quiz.id
        assert quiz.guide.url.get("en").startswith("https://")
        assert quiz.languages == LANGS
        # The nine tap questions, then one of each newer kind at the end (issue 17).
        assert len(quiz) >= 10 and quiz.questions[-1].kind is QuestionKind.NUMBER
        texts = [quiz.title, quiz.description, quiz.guide.title]
        for question in quiz.questions:
            if question.kind is QuestionKind.NUMBER:
                assert not question.options and question.number is not None
                texts += [question.prompt, question.explanation]
                continue
            if question.kind is not QuestionKind.MULTIPLE:
                assert len(question.options) == (
                    2 if question.kind is QuestionKind.TRUE_FALSE else 4
                )
            texts += [question.prompt, question.explanation]
            texts += [option.text for option in question.options]
        for text in texts:
            assert tuple(text.values) == LANGS


def test_most_quizzes_carry_a_code_block() -> None:
    fenced = [
        q for q in load_catalog(CONTENT) if any("```" in x.prompt.get("en") for x in q.questions)
    ]
    assert len(fenced) >= 3


def test_correct_option_position_varies() -> None:
    for quiz in load_catalog(CONTENT):
        positions = [question.correct for question in quiz.questions]
        assert set(positions) == {0, 1, 2, 3}, quiz.id


def test_explanations_are_short_and_code_stays_code() -> None:
    for quiz in load_catalog(CONTENT):
        for question in quiz.questions:
            # Room for the why (use_reentrant, token-level losses); the group popup shows the
            # first sentence, which the checker keeps within the popup.
            assert len(question.explanation.get("en")) <= 480
            for text in [question.prompt, question.explanation]:
                spans = sorted(code_spans(text.get("en")))
                assert all(sorted(code_spans(text.get(lang))) == spans for lang in LANGS)


def test_french_never_says_degrade() -> None:
    for path in CONTENT.glob("quizzes/*.fr.yaml"):
        assert "dégradé" not in path.read_text(encoding="utf-8").casefold()


def test_french_typography() -> None:
    """U+202F before ; : ! ? and %, typographic apostrophes (outside code)."""
    spaced = re.compile(r"[ \u00a0][;:!?%]")
    for quiz in load_catalog(CONTENT):
        texts = [quiz.title, quiz.description]
        for question in quiz.questions:
            texts += [question.prompt, question.explanation]
            texts += [option.text for option in question.options]
        for text in texts:
            prose = " ".join(piece for is_code, piece in split_code(text.get("fr")) if not is_code)
            assert "'" not in prose, prose
            assert not spaced.search(prose), prose


def test_wolof_follows_the_glossary() -> None:
    text = " ".join(p.read_text(encoding="utf-8") for p in CONTENT.glob("quizzes/*.wo.yaml"))
    assert "gëna" not in text
    assert not re.search(r"\bf[ae]y\b", text, re.IGNORECASE)


def test_every_shipped_quiz_has_a_true_false_question_in_every_language() -> None:
    for quiz in load_catalog(CONTENT):
        kinds = [q for q in quiz.questions if q.kind is QuestionKind.TRUE_FALSE]
        assert kinds, quiz.id
        for question in kinds:
            assert [o.id for o in question.options] == ["true", "false"]
            labels = {lang: question.options[0].text.get(lang) for lang in LANGS}
            assert labels == {"en": "True", "fr": "Vrai", "wo": "Dëgg"}


def test_a_number_reply_may_end_with_the_questions_noun() -> None:
    """Issue 28 #26: "64 examples" to "How many examples…?" was "no number there". A shipped
    number question that counts something names it as its unit in every language, so the noun
    may follow the number ("64 examples", "64 exemples", "64 misaal"); a bare number (a scale,
    a divisor) has none."""
    from bot.core.answers import units
    from bot.core.kinds import parse_number

    catalog = load_catalog(CONTENT)
    numbers = [q for quiz in catalog for q in quiz.questions if q.kind is QuestionKind.NUMBER]
    numbers = [q for q in numbers if q.unit.get("en")]
    assert len(numbers) >= 4
    for question in numbers:
        assert question.number is not None
        key = question.number
        value = key.value if key.value is not None else key.low
        assert value is not None
        for lang, mark in (("en", "."), ("fr", ","), ("wo", ",")):
            unit = question.unit.get(lang)
            assert unit, (question.id, lang)
            typed = f"{value:g} {unit}".replace(".", mark)
            assert parse_number(typed, mark, units(question, lang)) == value, typed
