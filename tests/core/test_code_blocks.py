"""Fenced code blocks (```python ... ```) in content strings: split, compared and rendered."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.content import check, format_report, load_catalog
from bot.core.markup import code_spans, fenced, plain, split_code
from bot.tg.screen_render import rich

FIXTURES = Path(__file__).resolve().parents[1] / "content" / "fixtures"
BLOCK = "```python\nloss = loss / 4  # `scaled`\nloss.backward()\n```"
TEXT = f"What does this do?\n{BLOCK}\nSee `loss`."


def test_a_block_is_one_code_piece_with_its_language() -> None:
    pieces = split_code(TEXT)
    assert pieces == [
        (False, "What does this do?\n"),
        (True, BLOCK),
        (False, "\nSee "),
        (True, "loss"),
        (False, "."),
    ]
    assert fenced(BLOCK) == ("python", "loss = loss / 4  # `scaled`\nloss.backward()")
    assert fenced("loss") is None
    assert code_spans(TEXT) == [BLOCK, "loss"]
    assert plain(TEXT) == (
        "What does this do?\nloss = loss / 4  # `scaled`\nloss.backward()\nSee loss."
    )


def test_a_block_renders_as_pre_code_with_the_language() -> None:
    assert rich(TEXT) == (
        'What does this do?\n<pre><code class="language-python">loss = loss / 4  # `scaled`\n'
        "loss.backward()</code></pre>\nSee <code>loss</code>."
    )
    assert rich("```\na < b\n```") == "<pre><code>a &lt; b</code></pre>"


def _content(tmp_path: Path, english: str, french: str) -> Path:
    root = tmp_path / "c"
    shutil.copytree(FIXTURES / "valid", root)
    for name, prompt in (("demo.yaml", english), ("demo.fr.yaml", french)):
        path = root / "quizzes" / name
        lines = path.read_text("utf-8").splitlines()
        at = next(i for i, line in enumerate(lines) if line.strip().startswith("prompt:"))
        indent = " " * 6
        lines[at : at + 1] = ["    prompt: |-"] + [indent + x for x in prompt.splitlines()]
        path.write_text("\n".join(lines) + "\n", "utf-8")
    return root


def test_a_block_kept_identical_across_languages_loads(tmp_path: Path) -> None:
    french = f"Que fait ce code\u202f?\n{BLOCK}\nVoir `loss`."
    root = _content(tmp_path, TEXT, french)
    report = check(root)
    assert report.errors == [], format_report(report)
    quiz = load_catalog(root).quiz("demo")
    assert quiz is not None and BLOCK in quiz.questions[0].prompt.get("fr")


@pytest.mark.parametrize(
    "changed",
    [
        BLOCK.replace("loss.backward()", "perte.backward()"),  # code translated
        BLOCK.replace("python", "py"),  # language tag changed
        BLOCK.replace("```python\n", "").replace("\n```", ""),  # fence dropped
    ],
)
def test_a_block_changed_in_a_translation_is_an_error(tmp_path: Path, changed: str) -> None:
    french = f"Que fait ce code\u202f?\n{changed}\nVoir `loss`."
    report = check(_content(tmp_path, TEXT, french))
    assert any(
        p.key == "questions.q1.prompt" and "demo.fr.yaml" in str(p.file) for p in report.errors
    ), format_report(report)
