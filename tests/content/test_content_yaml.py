"""The line-tracking YAML reader: lines per key, text scalars, duplicates, syntax errors."""

from __future__ import annotations

import pytest

from bot.content.yaml_nodes import YamlSyntaxError, key_str, parse_yaml

TEXT = """\
# a comment
id: demo
languages: [en, fr]
questions:
  q1:
    options:
      a: 32
      b: yes
      c:
    explanation: >-
      folded
      text
"""


def test_every_key_has_its_line() -> None:
    doc = parse_yaml(TEXT)
    assert doc.line(("id",)) == 2
    assert doc.line(("languages", 1)) == 3
    assert doc.line(("questions", "q1", "options", "b")) == 8
    assert doc.line(("questions", "q1", "explanation")) == 10
    # A missing key points at its nearest existing parent.
    assert doc.line(("questions", "q1", "prompt")) == 5
    assert doc.line(("nothing", "here")) == 1


def test_scalars_stay_the_text_the_author_wrote() -> None:
    data = parse_yaml(TEXT).data
    assert isinstance(data, dict)
    options = data["questions"]["q1"]["options"]
    assert options == {"a": "32", "b": "yes", "c": None}
    assert data["questions"]["q1"]["explanation"] == "folded text"


def test_duplicate_keys_are_kept_once_and_reported() -> None:
    doc = parse_yaml("a: 1\nb: 2\na: 3\n")
    assert doc.data == {"a": "1", "b": "2"}
    [dup] = doc.duplicates
    assert (dup.path, dup.line, dup.first_line) == (("a",), 3, 1)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("a: `code`\n", 1, "must be quoted"),
        ("a: b\n  c: d\n", 2, "invalid YAML"),
        ("a: [1, 2\nb: 3\n", 1, "starts with [ is read as a list"),  # where [ opens
        ("a: 1\n---\nb: 2\n", 2, "invalid YAML"),
    ],
)
def test_syntax_errors_carry_a_line(text: str, line: int, words: str) -> None:
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(text)
    assert caught.value.line == line
    assert words in caught.value.message


def test_tags_are_never_constructed() -> None:
    doc = parse_yaml("a: !!python/object/apply:os.system ['echo hi']\n")
    assert doc.data == {"a": ["echo hi"]}


def test_key_str() -> None:
    assert key_str(("questions", "q1", "options", "b")) == "questions.q1.options.b"
    assert key_str(("languages", 2)) == "languages[2]"
    assert key_str(()) == ""
