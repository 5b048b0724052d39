"""YAML text -> plain data plus the line of every key, so each error can point at its line.

PyYAML's safe loader only *composes* the node tree here (nothing is ever constructed, so no tag
can run code); this module builds dicts, lists and strings from the nodes itself, because:
- every key path gets its line, which pydantic's error locations are mapped back to;
- a duplicate key is reported (PyYAML silently keeps the last one, hiding a duplicate id);
- every scalar stays the text the author wrote: `32`, `yes` or `1.0` are option texts, never
  numbers or booleans. Only an empty value (or `null`, `~`) becomes None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

KeyPath = tuple[str | int, ...]
_NULL_TAG = "tag:yaml.org,2002:null"
_MAX_DEPTH = 64


class YamlSyntaxError(Exception):
    """The text is not YAML; `line` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class DuplicateKey:
    path: KeyPath  # path of the second occurrence
    line: int
    first_line: int


@dataclass(slots=True)
class YamlDoc:
    data: object
    lines: dict[KeyPath, int] = field(default_factory=dict)
    duplicates: list[DuplicateKey] = field(default_factory=list)

    def line(self, path: Sequence[str | int]) -> int:
        """Line of `path`, or of its nearest ancestor that exists (a missing key's parent)."""
        key = tuple(path)
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return self.lines.get((), 1)


def key_str(path: Sequence[str | int]) -> str:
    """`questions.q1.options.b`, list items as `languages[1]`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


_FastLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> YamlDoc:
    """Parse one YAML document; raises YamlSyntaxError with the line of the first problem."""
    # libyaml's composer when the wheel has it (much faster on 500 quizzes): same nodes and
    # marks, still safe (values are built from the node tree here). On a syntax error, parse
    # again with the pure-Python loader, whose messages are the ones authors are shown.
    if _FastLoader is not yaml.SafeLoader:
        fast = _FastLoader(text)
        try:
            node = fast.get_single_node()
        except yaml.YAMLError:
            pass
        else:
            return _document(node)
        finally:
            fast.dispose()
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise YamlSyntaxError(mark.line + 1 if mark else 1, _syntax_message(exc)) from exc
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(1, f"invalid YAML: {exc}") from exc
    finally:
        loader.dispose()
    return _document(node)


def _document(node: Node | None) -> YamlDoc:
    doc = YamlDoc(data=None, lines={(): 1})
    if node is not None:
        doc.data = _build(node, (), doc, depth=0)
    return doc


def _syntax_message(exc: yaml.MarkedYAMLError) -> str:
    problem = exc.problem or str(exc)
    message = f"invalid YAML: {problem}"
    if exc.context:
        message += f" ({exc.context})"
    if "`" in problem:
        # The most common mistake in quiz files: a value starting with inline code.
        message += "; a value that starts with ` must be quoted, e.g. a: '`optimizer.step()`'"
    elif "mapping values are not allowed" in problem:
        message += "; quote a value that contains ': ', e.g. prompt: 'Note: ...'"
    return message


def _build(node: Node, path: KeyPath, doc: YamlDoc, depth: int) -> object:
    if depth > _MAX_DEPTH:
        raise YamlSyntaxError(node.start_mark.line + 1, "YAML nested too deeply (recursive alias?)")
    if isinstance(node, ScalarNode):
        return None if node.tag == _NULL_TAG else str(node.value)
    if isinstance(node, SequenceNode):
        items: list[object] = []
        for index, item in enumerate(node.value):
            doc.lines[(*path, index)] = item.start_mark.line + 1
            items.append(_build(item, (*path, index), doc, depth + 1))
        return items
    assert isinstance(node, MappingNode)
    mapping: dict[str, object] = {}
    first_lines: dict[str, int] = {}
    for key_node, value_node in node.value:
        key = str(key_node.value) if isinstance(key_node, ScalarNode) else "<complex key>"
        line = key_node.start_mark.line + 1
        if key in first_lines:
            doc.duplicates.append(DuplicateKey((*path, key), line, first_lines[key]))
            continue
        first_lines[key] = line
        doc.lines[(*path, key)] = line
        mapping[key] = _build(value_node, (*path, key), doc, depth + 1)
    return mapping
