"""YAML text -> plain data plus the line of every key, so each error can point at its line.

PyYAML's safe loader only *composes* the node tree here (nothing is ever constructed, so no tag
can run code); this module builds dicts, lists and strings from the nodes itself, because:
- every key path gets its line, which pydantic's error locations are mapped back to;
- a duplicate key is reported (PyYAML silently keeps the last one, hiding a duplicate id);
- every scalar stays the text the author wrote: `32`, `yes` or `1.0` are option texts, never
  numbers or booleans. Only an empty value (or `null`, `~`) becomes None.

It is also the one safe way in for YAML from outside (content files today, uploads later):
`parse_yaml` bounds the text's size, its nesting and how far aliases may expand, so a hostile
file (a "billion laughs", a document nested 100,000 levels deep) is refused quickly, as one
YamlSyntaxError, instead of using gigabytes or ending in a RecursionError.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from bot.content.problems import N_, Msg
from bot.content.yaml_mistakes import STRUCTURAL_KEYS, cut_by_comment, known_mistake

KeyPath = tuple[str | int, ...]
_NULL_TAG = "tag:yaml.org,2002:null"


@dataclass(frozen=True, slots=True)
class YamlLimits:
    """What one document may cost. The defaults are far above any real quiz file (7 KB, ~500
    values, 6 levels, no aliases) and keep a hostile one to a few megabytes of memory."""

    max_chars: int = 1_000_000
    max_depth: int = 64
    max_aliases: int = 100  # references to an anchored list or mapping
    max_values: int = 200_000  # values built once aliases are expanded


DEFAULT_LIMITS = YamlLimits()


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


class YamlDoc:
    """A parsed document: its data, its duplicate keys, and the line of every key path.

    The line map is built on first use, by composing the text again: a clean file never needs
    it (lines are only looked up to report a problem), and skipping it is a good part of
    start-up time. The text is kept rather than the node tree: thousands of live nodes per
    file would make every garbage collection during start-up slower.
    """

    __slots__ = ("_lines", "_loader", "_text", "cut", "data", "duplicates")

    def __init__(
        self,
        data: object,
        lines: dict[KeyPath, int] | None = None,
        duplicates: list[DuplicateKey] | None = None,
        *,
        text: str | None = None,
        loader: type[yaml.SafeLoader] | None = None,
    ) -> None:
        self.data = data
        self.duplicates = [] if duplicates is None else duplicates
        # (path, line) of each plain value a ` #` cut short (`yaml_mistakes.cut_by_comment`)
        self.cut: list[tuple[KeyPath, int]] = []
        self._lines = lines
        self._text = text
        self._loader = loader

    @property
    def lines(self) -> dict[KeyPath, int]:
        if self._lines is None:
            self._lines = {(): 1}
            if self._text is not None and self._loader is not None:
                node = _compose(self._loader, self._text)
                if node is not None:
                    _index(node, (), self._lines)
            self._text = None
        return self._lines

    def line(self, path: Sequence[str | int]) -> int:
        """Line of `path`, or of its nearest ancestor that exists (a missing key's parent)."""
        lines = self.lines
        key = tuple(path)
        while key:
            if key in lines:
                return lines[key]
            key = key[:-1]
        return lines.get((), 1)


def key_str(path: Sequence[str | int]) -> str:
    """`questions.q1.options.b`, list items as `languages[1]`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


class _NullOnlyResolver(yaml.resolver.BaseResolver):
    """Tags only what the builder below asks about: is this plain scalar a null?

    Every scalar is kept as text, so resolving `32` to an int or `yes` to a bool (PyYAML's
    resolver, one regex per scalar) is wasted work. A plain scalar is null exactly when the
    YAML 1.1 resolver says so: empty, `~`, `null`, `Null` or `NULL`.
    """

    def resolve(self, kind: type[Node], value: object, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode:
            return _NULL_TAG if implicit[0] and value in _NULLS else self.DEFAULT_SCALAR_TAG
        if kind is SequenceNode:
            return self.DEFAULT_SEQUENCE_TAG
        return self.DEFAULT_MAPPING_TAG

    # Path resolvers (never registered here) are tracked around every node the composer
    # builds: 300,000 calls at start-up. A builtin type taking the same arguments does nothing
    # useful just as well, without a Python frame per call: slice(parent, index), tuple().
    descend_resolver = slice  # type: ignore[assignment]
    ascend_resolver = tuple  # type: ignore[assignment]


_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_CLoader = getattr(yaml, "CSafeLoader", None)
if _CLoader is not None:

    class _FastLoader(_NullOnlyResolver, _CLoader):  # type: ignore[misc, valid-type]
        pass

else:
    _FastLoader = yaml.SafeLoader  # type: ignore[misc, assignment]


def parse_yaml(text: str, limits: YamlLimits = DEFAULT_LIMITS) -> YamlDoc:
    """Parse one YAML document within `limits`; raises YamlSyntaxError with the line of the
    first problem (a limit exceeded is one too)."""
    if len(text) > limits.max_chars:
        raise YamlSyntaxError(
            1,
            Msg(
                N_("file too large ({size} characters; at most {most})"),
                size=f"{len(text):,}",
                most=f"{limits.max_chars:,}",
            ),
        )
    # libyaml's composer when the wheel has it (much faster on 500 quizzes): same nodes and
    # marks, still safe (values are built from the node tree here). On a syntax error, parse
    # again with the pure-Python loader, whose messages are the ones authors are shown.
    if _CLoader is not None:
        try:
            node = _compose(_FastLoader, text)
        except yaml.YAMLError:
            pass
        else:
            return _document(node, text, _FastLoader, limits)
    try:
        node = _compose(yaml.SafeLoader, text)
    except yaml.MarkedYAMLError as exc:
        known = known_mistake(exc)
        if known is not None:
            raise YamlSyntaxError(*known) from exc
        mark = exc.problem_mark or exc.context_mark
        raise YamlSyntaxError(mark.line + 1 if mark else 1, _syntax_message(exc)) from exc
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(1, Msg(N_("invalid YAML: {problem}"), problem=str(exc))) from exc
    return _document(node, text, yaml.SafeLoader, limits)


def _compose(loader_class: type[yaml.SafeLoader], text: str) -> Node | None:
    loader = loader_class(text)
    try:
        return loader.get_single_node()
    except RecursionError:
        # Both composers recurse once per level: Python's recursion limit (about 1,000) is
        # what stops a document nested deeper, long before memory or time could matter.
        raise YamlSyntaxError(1, Msg(N_("YAML nested too deeply (hundreds of levels)"))) from None
    finally:
        loader.dispose()


def _too_deep(depth: int) -> str:
    return Msg(N_("YAML nested too deeply (more than {n} levels, or a recursive alias)"), n=depth)


class _Budget:
    """Counts what building the data costs, so aliases cannot multiply it without bound."""

    __slots__ = ("_lines", "aliases", "cut", "limits", "seen", "text", "values")

    def __init__(self, limits: YamlLimits, text: str = "") -> None:
        self.limits = limits
        self.text = text
        self._lines: list[str] | None = None
        self.cut: list[tuple[KeyPath, int]] = []
        self.values = 0
        self.aliases = 0
        self.seen: set[int] = set()

    def enter(self, node: Node) -> None:
        """Called once per list or mapping built: a node met twice is an alias expanded."""
        if id(node) in self.seen:
            self.aliases += 1
            if self.aliases > self.limits.max_aliases:
                raise YamlSyntaxError(
                    node.start_mark.line + 1,
                    Msg(N_("too many aliases (more than {n})"), n=self.limits.max_aliases),
                )
        else:
            self.seen.add(id(node))
        self.values += len(node.value)
        if self.values > self.limits.max_values:
            raise YamlSyntaxError(
                node.start_mark.line + 1,
                Msg(
                    N_("YAML too large once aliases are expanded (more than {n} values)"),
                    n=f"{self.limits.max_values:,}",
                ),
            )

    def check_cut(self, key: str, node: ScalarNode, path: KeyPath) -> None:
        """Note a plain text value that a ` #` cut short (not a structural key's comment)."""
        if node.style or node.tag == _NULL_TAG or key in STRUCTURAL_KEYS:  # "" from libyaml
            return
        if self._lines is None:
            self._lines = self.text.split("\n")
        end = node.end_mark
        if cut_by_comment(self._lines, end.line, end.column):
            self.cut.append(((*path, key), node.start_mark.line + 1))


def _document(
    node: Node | None, text: str, loader: type[yaml.SafeLoader], limits: YamlLimits
) -> YamlDoc:
    if node is None:
        return YamlDoc(data=None, lines={(): 1})
    duplicates: list[DuplicateKey] = []
    budget = _Budget(limits, text)
    data = _build(node, (), duplicates, 0, budget)
    doc = YamlDoc(data, duplicates=duplicates, text=text, loader=loader)
    doc.cut = budget.cut
    return doc


def _syntax_message(exc: yaml.MarkedYAMLError) -> str:
    """PyYAML's own words for the problem (English: a library's text), in our sentence with our
    advice for the two mistakes quiz authors make most."""
    problem = exc.problem or str(exc)
    code, colon = "`" in problem, "mapping values are not allowed" in problem
    if "'\\t'" in problem:  # PyYAML writes the tab escaped
        return Msg(N_("invalid YAML: a tab in the indentation; indent with spaces, not tabs"))
    if exc.context:
        problem += f" ({exc.context})"
    if _closed_early(exc.problem_mark):
        return Msg(N_("invalid YAML: {problem}; an apostrophe inside '...' ends the text: "
                      "write it twice (''), or quote the text with \"...\" (in French, write ’)"),
                   problem=problem)  # fmt: skip
    if code:
        # The most common mistake in quiz files: a value starting with inline code.
        return Msg(N_("invalid YAML: {problem}; a value that starts with ` must be quoted, e.g. "
                      "a: '`optimizer.step()`'"), problem=problem)  # fmt: skip
    if colon:
        return Msg(N_("invalid YAML: {problem}; quote a value that contains ': ', e.g. prompt: "
                      "'Note: ...'"), problem=problem)  # fmt: skip
    return Msg(N_("invalid YAML: {problem}"), problem=problem)


# A single-quoted value closed too early by an apostrophe: `title: 'L'accumulation'`.
_EARLY_QUOTE = re.compile(r"(?:^|:\s|-\s)\s*'[^'\n]*'[^\s,\]}#'\n]")


def _closed_early(mark: yaml.Mark | None) -> bool:
    """Whether the line of `mark` holds a single-quoted value an apostrophe closed early."""
    if mark is None or not isinstance(mark.buffer, str):
        return False
    lines = mark.buffer.split("\n")
    return mark.line < len(lines) and _EARLY_QUOTE.search(lines[mark.line]) is not None


def _build(
    node: Node, path: KeyPath, duplicates: list[DuplicateKey], depth: int, budget: _Budget
) -> object:
    """The data of a node; scalars stay text. Lines are left to `_index` (built on demand)."""
    max_depth = budget.limits.max_depth
    if depth > max_depth:
        raise YamlSyntaxError(node.start_mark.line + 1, _too_deep(max_depth))
    kind = type(node)
    if kind is ScalarNode:
        return None if node.tag == _NULL_TAG else str(node.value)
    budget.enter(node)
    inline = depth < max_depth  # a child scalar here cannot be too deep: build it in place
    if kind is SequenceNode:
        items: list[object] = []
        for index, item in enumerate(node.value):
            if inline and type(item) is ScalarNode:
                items.append(None if item.tag == _NULL_TAG else str(item.value))
            else:
                items.append(_build(item, (*path, index), duplicates, depth + 1, budget))
        return items
    assert isinstance(node, MappingNode)
    mapping: dict[str, object] = {}
    for key_node, value_node in node.value:
        key = _key(key_node)
        if key in mapping:
            first = next(k for k, _ in node.value if _key(k) == key)
            duplicates.append(
                DuplicateKey((*path, key), key_node.start_mark.line + 1, first.start_mark.line + 1)
            )
            continue
        if type(value_node) is ScalarNode:
            budget.check_cut(key, value_node, path)
        if inline and type(value_node) is ScalarNode:
            mapping[key] = None if value_node.tag == _NULL_TAG else str(value_node.value)
        else:
            mapping[key] = _build(value_node, (*path, key), duplicates, depth + 1, budget)
    return mapping


def _key(node: Node) -> str:
    return str(node.value) if isinstance(node, ScalarNode) else "<complex key>"


def _index(node: Node, path: KeyPath, lines: dict[KeyPath, int]) -> None:
    """Record the line of every key path under `node`, as `_build` walked it (first of
    duplicate keys; `_build` already refused a tree nested too deeply)."""
    if isinstance(node, SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*path, index)] = item.start_mark.line + 1
            _index(item, (*path, index), lines)
    elif isinstance(node, MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = _key(key_node)
            if key in seen:
                continue
            seen.add(key)
            lines[(*path, key)] = key_node.start_mark.line + 1
            _index(value_node, (*path, key), lines)
