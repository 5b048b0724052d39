"""The start-up cache: a clean verdict is reused only for the same files and the same checker."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.content import ContentError, cache, checks, load_catalog, loader
from bot.content.yaml_nodes import _compose, _FastLoader, parse_yaml

FIXTURES = Path(__file__).parent / "fixtures"


def _copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(FIXTURES / name, tmp_path / name))


def _count_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = checks.check_sources

    def counted(*args: Any) -> None:
        calls.append(1)
        original(*args)

    monkeypatch.setattr(loader, "check_sources", counted)
    return calls


def _no_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_: object) -> None:
        raise AssertionError("the checks ran")

    monkeypatch.setattr(loader, "check_sources", fail)
    monkeypatch.setattr(loader, "check_translations", fail)


def test_a_clean_result_is_stored_and_then_skips_the_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content, cache_dir = _copy("partial-translation", tmp_path), tmp_path / "cache"
    first = load_catalog(content, cache_dir)
    stored = json.loads((cache_dir / cache.CACHE_FILE).read_text(encoding="utf-8"))
    [warning] = stored["problems"]  # the fallback warning, with a path relative to the content
    assert warning["file"] == "quizzes/demo.fr.yaml" and warning["severity"] == "warning"
    assert first == load_catalog(FIXTURES / "partial-translation")
    _no_checks(monkeypatch)
    assert load_catalog(content, cache_dir) == first


def test_without_a_cache_dir_nothing_is_written_and_the_checks_run(tmp_path: Path) -> None:
    content = _copy("valid", tmp_path)
    load_catalog(content)
    assert not list(tmp_path.rglob(cache.CACHE_FILE))


def test_an_edited_file_is_checked_again(tmp_path: Path) -> None:
    content, cache_dir = _copy("valid", tmp_path), tmp_path / "cache"
    load_catalog(content, cache_dir)
    broken = FIXTURES / "identical-to-source" / "quizzes" / "demo.fr.yaml"
    shutil.copy(broken, content / "quizzes" / "demo.fr.yaml")
    with pytest.raises(ContentError) as caught:
        load_catalog(content, cache_dir)
    assert "same as the English" in str(caught.value)


def test_a_new_glossary_is_checked_again(tmp_path: Path) -> None:
    content, cache_dir = _copy("valid", tmp_path), tmp_path / "cache"
    load_catalog(content, cache_dir)
    key = json.loads((cache_dir / cache.CACHE_FILE).read_text(encoding="utf-8"))["key"]
    (content / "glossary.yaml").write_text("terms: {}\n", encoding="utf-8")
    load_catalog(content, cache_dir)
    assert json.loads((cache_dir / cache.CACHE_FILE).read_text(encoding="utf-8"))["key"] != key


def test_errors_are_never_cached(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    for _ in range(2):
        with pytest.raises(ContentError):
            load_catalog(FIXTURES / "identical-to-source", cache_dir)
    assert not (cache_dir / cache.CACHE_FILE).exists()


def test_another_checker_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    content, cache_dir = _copy("valid", tmp_path), tmp_path / "cache"
    load_catalog(content, cache_dir)
    monkeypatch.setattr(cache, "checker_digest", lambda: "a newer checker")
    calls = _count_checks(monkeypatch)
    load_catalog(content, cache_dir)
    assert calls


@pytest.mark.parametrize("stored", ["", "{not json", '{"format": 1, "key": 3}', "[]"])
def test_a_damaged_cache_is_a_miss(tmp_path: Path, stored: str) -> None:
    content, cache_dir = _copy("valid", tmp_path), tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / cache.CACHE_FILE).write_text(stored, encoding="utf-8")
    assert load_catalog(content, cache_dir) == load_catalog(FIXTURES / "valid")


def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path: Path) -> None:
    content = _copy("valid", tmp_path)
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("", encoding="utf-8")
    assert load_catalog(content, not_a_dir) == load_catalog(FIXTURES / "valid")


def test_a_stored_error_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    content, cache_dir = _copy("valid", tmp_path), tmp_path / "cache"
    load_catalog(content, cache_dir)
    path = cache_dir / cache.CACHE_FILE
    stored = json.loads(path.read_text(encoding="utf-8"))
    stored["problems"] = [
        {"file": "guides.yaml", "line": 1, "key": "", "message": "x", "severity": "error"}
    ]
    path.write_text(json.dumps(stored), encoding="utf-8")
    calls = _count_checks(monkeypatch)
    load_catalog(content, cache_dir)
    assert calls


def test_the_fast_loader_reads_what_the_pure_python_loader_reads() -> None:
    text = (
        "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: ''\ng: 'null'\nh: !!null x\ni: nul\n"
        "j: [~, '~', 1, yes, 1.5, 2001-12-14]\nk: {x: , y: NULL}\nl: ! null\nm: !!str null\n"
    )
    fast = _compose(_FastLoader, text)
    pure = _compose(yaml.SafeLoader, text)
    assert fast is not None and pure is not None

    def tags(node: yaml.Node) -> object:
        if isinstance(node, yaml.ScalarNode):
            return node.value, node.tag == "tag:yaml.org,2002:null", node.start_mark.line
        if isinstance(node, yaml.SequenceNode):
            return [tags(item) for item in node.value]
        return [(tags(k), tags(v)) for k, v in node.value]

    assert tags(fast) == tags(pure)
    data = parse_yaml(text).data
    assert isinstance(data, dict)
    assert [k for k, v in data.items() if v is None] == ["a", "b", "c", "d", "e", "h", "l"]


def test_lines_are_found_after_the_data_is_built() -> None:
    doc = parse_yaml("q:\n  a: 1\n  b:\n    - x\n    - y: 2\n  a: 3\n")
    assert doc.data == {"q": {"a": "1", "b": ["x", {"y": "2"}]}}
    [dup] = doc.duplicates
    assert (dup.path, dup.line, dup.first_line) == (("q", "a"), 6, 2)
    assert doc.line(("q", "b", 1, "y")) == 5
    assert doc.line(("q", "b", 0)) == 4
    assert doc.lines[("q", "a")] == 2
