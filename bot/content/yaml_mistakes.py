"""The YAML mistakes quiz authors make, in words they can act on, at the line they made them.

PyYAML says what its parser met ("expected <block end>, but found '<scalar>'", "found character
'@' that cannot start any token"), often lines after the mistake: an unclosed double quote runs
on until the next `"`, several lines down. Each mistake below is recognised from the parser's
error and the file's text, reported at the line where the value starts, with what YAML made of
it and the fix (quote the value), spelled out with the author's own key and text. Unknown
errors keep PyYAML's words (`yaml_nodes._syntax_message`).
"""

from __future__ import annotations

import json
import re

import yaml

from bot.content.problems import N_, Msg

# `key: value` or `- value` at the start of a line: the value is where a mistake shows.
_VALUE = re.compile(r"^(?P<lead>\s*(?:-\s+)?(?:(?P<key>[^\s#'\"][^:#]*?):\s+|-\s+))(?P<v>\S.*)$")
_EXAMPLE_CHARS = 40
# The keys whose plain values may carry a comment after them (README: `answer: b  # ...`).
STRUCTURAL_KEYS = frozenset(
    {
        "id",
        "guide",
        "level",
        "answer",
        "kind",
        "file",
        "url",
        "value",
        "tolerance",
        "low",
        "high",
        "reviewed",
    }
)


def _lines(exc: yaml.MarkedYAMLError) -> list[str]:
    mark = exc.problem_mark or exc.context_mark
    buffer = mark.buffer if mark is not None else None
    return buffer.rstrip("\0").split("\n") if isinstance(buffer, str) else []


def _example(key: str | None, value: str) -> str:
    """The line as it should be written: the value in double quotes (JSON's escapes are a
    subset of YAML's), cut after `_EXAMPLE_CHARS` characters."""
    text = value.strip()
    if text.startswith('"') and text.count('"') % 2 == 1:
        text = text[1:]  # the unclosed quote itself
    if len(text) > _EXAMPLE_CHARS:
        text = text[:_EXAMPLE_CHARS].rstrip() + "…"
    quoted = json.dumps(text, ensure_ascii=False)
    return f"{key}: {quoted}" if key else f"- {quoted}"


def _unclosed_quote(line: str) -> bool:
    """Whether the value on `line` opens a double quote it does not close."""
    found = _VALUE.match(line)
    if found is None or not found["v"].startswith('"'):
        return False
    body = re.sub(r"\\.", "", found["v"][1:])
    return '"' not in body


def known_mistake(exc: yaml.MarkedYAMLError) -> tuple[int, str] | None:
    """(1-based line, message) for a mistake this module knows, else None."""
    lines = _lines(exc)
    problem = exc.problem or ""
    mark = exc.problem_mark or exc.context_mark
    at = mark.line if mark is not None else 0
    if not lines:
        return None
    # An unclosed double quote: the nearest line at or before the error that opens one.
    start = (
        exc.context_mark.line if "quoted scalar" in (exc.context or "") and exc.context_mark else at
    )
    for index in range(min(start, len(lines) - 1), -1, -1):
        if index < start and '"' in lines[index] and not _unclosed_quote(lines[index]):
            break  # a quote closed in between: an earlier value's quotes are not this error's
        if _unclosed_quote(lines[index]):
            found = _VALUE.match(lines[index])
            assert found is not None
            return index + 1, Msg(
                N_('invalid YAML: the " that opens this value is never closed, so the text runs '
                   'on into the next lines; close the quote at the end of the text, e.g. '
                   '{example}'),
                example=_example(found["key"], found["v"]),
            )  # fmt: skip
    where = at
    if exc.context_mark is not None and "flow" in (exc.context or ""):
        where = exc.context_mark.line  # an unclosed [ or {: where it opened
    if where >= len(lines):
        return None
    found = _VALUE.match(lines[where])
    if found is None:
        return None
    key, value = found["key"], found["v"]
    example = _example(key, value)
    first = value[0]
    if first in "*&":
        return where + 1, Msg(
            N_("invalid YAML: a value that starts with {char} is read as an alias (a reference "
               "to another part of the file), not as text; quote the value, e.g. {example}"),
            char=first, example=example,
        )  # fmt: skip
    if first == "[":
        return where + 1, Msg(
            N_("invalid YAML: a value that starts with [ is read as a list, not as text; quote "
               "the value, e.g. {example} (a list must end with ])"),
            example=example,
        )  # fmt: skip
    if first == "{":
        return where + 1, Msg(
            N_("invalid YAML: a value that starts with {{ is read as a mapping, not as text; "
               "quote the value, e.g. {example} (a mapping must end with }})"),
            example=example,
        )  # fmt: skip
    if first in "@`" and "cannot start any token" in problem:
        return where + 1, Msg(
            N_("invalid YAML: a value that starts with {char} must be quoted (YAML reserves "
               "the character), e.g. {example}"),
            char=first, example=example,
        )  # fmt: skip
    if "mapping values are not allowed" in problem and ": " in value:
        return where + 1, Msg(
            N_("invalid YAML: this value contains ': ', which YAML reads as the start of another "
               "key; quote the value, e.g. {example}"),
            example=example,
        )  # fmt: skip
    return None


def cut_by_comment(lines: list[str], line: int, column: int) -> bool:
    """Whether a comment follows the plain value that ends at (0-based) `line`, `column`."""
    if line >= len(lines):
        return False
    return lines[line][column:].lstrip(" \t").startswith("#")


CUT_BY_COMMENT = N_(
    "everything after # was dropped: in YAML, a # after a space starts a comment; quote the "
    'value to keep it, e.g. {key}: "… #…"'
)
