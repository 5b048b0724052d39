"""A translation's strings -> the text of its `<quiz>.<lang>.yaml` file (what `po import` writes).

The layout is the shipped files' own: the file's leading comments kept, `reviewed: false` when
so, prompts, options and titles double-quoted on one line, explanations and alt texts folded
(`>-`) at about the shipped width. Every string is written so that the loader reads it back
unchanged: one that folding could alter (a line break, a run of spaces, a space at an end) is
double-quoted (JSON's escapes are a subset of YAML's).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence

from bot.content.yaml_nodes import KeyPath

_WIDTH = 94  # the shipped files fold explanations at about this column
_FOLD_OVER = 90  # explanations and alt texts longer than this are folded


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _key(key: str) -> str:
    # `true:` / `false:` are option ids; the loader reads every plain key as a string, but a
    # null-like key would not be one.
    return _q(key) if key.casefold() in {"null", "~"} else key


def _foldable(text: str) -> bool:
    # A folded scalar joins its lines with one space: only a text with single spaces between
    # words, none at its ends, comes back unchanged.
    return text == text.strip() and "\n" not in text and "  " not in text and "\t" not in text


def _scalar(indent: str, key: str, text: str, *, fold: bool = False) -> list[str]:
    if not (fold and len(text) > _FOLD_OVER and _foldable(text)):
        return [f"{indent}{_key(key)}: {_q(text)}"]
    body = textwrap.wrap(
        text,
        width=_WIDTH - len(indent) - 2,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [f"{indent}{_key(key)}: >-", *(f"{indent}  {line}" for line in body)]


def translation_file(
    strings: dict[KeyPath, str],
    order: Sequence[KeyPath],
    *,
    header: Sequence[str] = (),
    reviewed: bool = True,
    same_as_source: Sequence[str] = (),
    image_files: dict[tuple[str, str], str] | None = None,
) -> str:
    """The file text: `strings` by key path, in the source's `order`; `image_files` maps
    (question id, image field) to this language's own picture."""
    image_files = image_files or {}
    lines = list(header)
    if not reviewed:
        lines.append("reviewed: false")
    for key in ("title", "description"):
        if (key,) in strings:
            lines += _scalar("", key, strings[(key,)])
    if same_as_source:
        lines.append(f"same_as_source: [{', '.join(same_as_source)}]")
    questions: dict[str, list[KeyPath]] = {}
    for at in order:
        if at[0] == "questions" and (at in strings or _image_at(at, image_files)):
            questions.setdefault(str(at[1]), []).append(at)
    if questions:
        lines += ["", "questions:"]
    for qid, keys in questions.items():
        lines.append(f"  {_key(qid)}:")
        lines += _question(qid, keys, strings, image_files)
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _image_at(at: KeyPath, image_files: dict[tuple[str, str], str]) -> bool:
    return len(at) == 4 and at[3] == "alt" and (str(at[1]), str(at[2])) in image_files


def _question(
    qid: str,
    keys: list[KeyPath],
    strings: dict[KeyPath, str],
    image_files: dict[tuple[str, str], str],
) -> list[str]:
    lines: list[str] = []
    options = [at for at in keys if at[2] == "options" and at in strings]
    prompt: KeyPath = ("questions", qid, "prompt")
    if prompt in strings:
        lines += _scalar("    ", "prompt", strings[prompt])
    if options:
        lines.append("    options:")
        for option in options:
            lines += _scalar("      ", str(option[3]), strings[option])
    for field in ("explanation", "unit"):
        at: KeyPath = ("questions", qid, field)
        if at in strings:
            lines += _scalar("    ", field, strings[at], fold=field == "explanation")
    for field in ("image", "explanation_image"):
        at = ("questions", qid, field, "alt")
        own = image_files.get((qid, field))
        if at not in strings and own is None:
            continue
        lines.append(f"    {field}:")
        if own is not None:
            lines.append(f"      file: {_q(own)}")
        if at in strings:
            lines += _scalar("      ", "alt", strings[at], fold=True)
    return lines
