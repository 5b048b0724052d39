"""Pydantic's validation errors, re-worded for content authors and pinned to YAML lines."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.content.problems import Problems
from bot.content.schema import SCHEMAS
from bot.content.yaml_nodes import KeyPath, YamlDoc, key_str

M = TypeVar("M", bound=BaseModel)

_HINTS = {
    "answer": " (the id of the correct option, e.g. answer: b)",
    "options": " (option id: text, 2 to 10 of them)",
    "guide": " (the id of a guide path in guides.yaml)",
    "level": " (beginner, intermediate or advanced)",
}
_SOURCE_ONLY = {"answer", "id", "guide", "level", "languages"}


def _known_fields() -> set[str]:
    names: set[str] = set()
    models: list[type[BaseModel]] = list(SCHEMAS.values())
    while models:
        model = models.pop()
        for name, info in model.model_fields.items():
            names.add(name)
            for arg in getattr(info.annotation, "__args__", ()):
                if isinstance(arg, type) and issubclass(arg, BaseModel):
                    models.append(arg)
    return names


_KNOWN_FIELDS = _known_fields()


def validate(
    doc: YamlDoc, model: type[M], file: Path, sink: Problems, *, translation: bool = False
) -> M | None:
    """The validated model, or None with every error added to `sink` at its line."""
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            path = _data_path(doc.data, error["loc"])
            message = _message(error, path, doc.data is None, translation)
            sink.error(file, doc.line(path), key_str(path), message)
        return None


def _data_path(data: object, loc: tuple[int | str, ...]) -> KeyPath:
    """The part of pydantic's location that exists in the data, plus a missing field's name."""
    path: list[str | int] = []
    node = data
    for index, part in enumerate(loc):
        in_dict = isinstance(node, dict) and part in node
        if in_dict or (isinstance(node, list) and isinstance(part, int) and part < len(node)):
            node = node[part]  # type: ignore[index]
        elif index == len(loc) - 1 and isinstance(part, str) and not part.startswith("function"):
            path.append(part)  # a missing field: its parent's line, its own name
            break
        else:
            continue  # pydantic's own location parts (union members, validators)
        path.append(part)
    return tuple(path)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"the text '{value}'"


def _message(error: Any, path: KeyPath, empty_file: bool, translation: bool) -> str:
    kind: str = error["type"]
    name = str(path[-1]) if path else ""
    given = error.get("input")
    if kind == "missing":
        return f"missing required field '{name}'{_HINTS.get(name, '')}"
    if kind == "extra_forbidden":
        if translation and name in _SOURCE_ONLY:
            return f"'{name}' belongs in the English source only; a translation cannot change it"
        close = difflib.get_close_matches(name, sorted(_KNOWN_FIELDS), n=1, cutoff=0.7)
        return f"unknown key '{name}'" + (f" (did you mean '{close[0]}'?)" if close else "")
    if kind in {"model_type", "model_attributes_type", "dict_type"}:
        if empty_file and not path:
            return "the file is empty"
        return f"expected key: value lines here, found {_kind(given)}"
    if kind == "string_type":
        if given is None:
            return "empty: write the text, or remove the key"
        return f"expected text, found {_kind(given)} (check the indentation)"
    if kind == "list_type" and path[:1] == ("questions",) and name == "answer":
        return f"expected one option id (e.g. answer: b), found {_kind(given)}"
    if kind == "list_type":
        return f"expected a list such as [en, fr], found {_kind(given)}"
    if kind == "string_too_short":
        return "empty text: write the text, or remove the key"
    if kind == "too_short":
        return "needs at least one entry"
    if kind == "string_pattern_mismatch":
        return f"'{given}' is not a language code (two or three lowercase letters, e.g. fr)"
    if kind == "enum":
        return f"'{given}' is not allowed: use one of {error['ctx']['expected']}"
    if kind == "value_error":
        return str(error["ctx"]["error"])
    return str(error["msg"])
