"""Hostile YAML: a billion laughs or a document nested 100,000 levels deep is refused as one
line naming the file, under a fixed memory bound, by `quizbot content check` and `parse_yaml`."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from bot.content.yaml_nodes import YamlLimits, YamlSyntaxError, parse_yaml
from tests.content.hostile import HOSTILE, HOSTILE_FILE, billion_laughs, hostile_content

ROOT = Path(__file__).resolve().parents[2]
MEMORY_BOUND = 1024 * 1024 * 1024  # the whole checker process, interpreter and libraries included


def _memory_bound() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_content_check_refuses_a_hostile_file_in_one_line(tmp_path: Path, name: str) -> None:
    content = hostile_content(tmp_path / "content", HOSTILE[name])
    done = subprocess.run(
        [sys.executable, "-m", "bot", "content", "check", str(content)],
        cwd=ROOT, capture_output=True, text=True, preexec_fn=_memory_bound, timeout=100,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output and "MemoryError" not in output, output
    [line] = [line for line in output.splitlines() if HOSTILE_FILE in line]
    assert "too" in line.lower(), line


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (billion_laughs(3), "aliases"),  # 30 alias references, more than 20
        ("a: " + "[" * 70 + "]" * 70, "nested too deeply"),  # past max_depth
        ("a: " + "[" * 5000 + "]" * 5000, "nested too deeply"),  # past the composer's recursion
        ("a: " + "x" * 20_000, "too large"),
    ],
)
def test_each_limit_is_one_syntax_error(text: str, words: str) -> None:
    limits = YamlLimits(max_chars=15_000, max_aliases=20)
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(text, limits)
    assert words in caught.value.message


def test_expansion_is_bounded_without_many_aliases() -> None:
    # Six aliases of a list of 50,000 values: few references, but far too many values.
    values = ", ".join(["v"] * 50_000)
    text = f"a: &a [{values}]\nb: [*a, *a, *a, *a, *a, *a]\n"
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(text)
    assert "expanded" in caught.value.message


def test_a_few_aliases_stay_allowed() -> None:
    doc = parse_yaml("base: &b [x, y]\ncopy: *b\n")
    assert doc.data == {"base": ["x", "y"], "copy": ["x", "y"]}
