"""Pydantic's validation errors, re-worded for content authors and pinned to YAML lines."""

from __future__ import annotations

import copy
import difflib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.content.problems import N_, Msg, Problems
from bot.content.schema import BLANK, SCHEMAS
from bot.content.yaml_nodes import KeyPath, YamlDoc, key_str

M = TypeVar("M", bound=BaseModel)

_MISSING = {
    "answer": N_("missing required field '{name}' (the id of the correct option, e.g. answer: b)"),
    "options": N_("missing required field '{name}' (option id: text, 2 to 10 of them)"),
    "guide": N_("missing required field '{name}' (the id of a guide path in guides.yaml)"),
    "level": N_("missing required field '{name}' (beginner, intermediate or advanced)"),
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
        errors = exc.errors(include_url=False)
        for error in errors:
            path = _data_path(doc.data, error["loc"])
            message = _message(error, path, doc.data is None, translation)
            sink.error(file, doc.line(path), key_str(path), message)
        return _with_stand_ins(doc.data, model, errors, file, sink) if sink.salvage else None


_TEXTS = {"prompt", "explanation", "title", "description"}
_TEXT_ERRORS = {"missing", "string_type", "string_too_short", "value_error"}


def _with_stand_ins(
    data: object, model: type[M], errors: list[Any], file: Path, sink: Problems
) -> M | None:
    """The model once every text the errors are about holds a stand-in (and every question
    with another error is left out), so that the checks still see the rest of the file and
    report it in the same pass; None when an error is elsewhere (the id, the guide...). The
    file has errors already, so it is never served; `sink` drops what the checks say about
    the stand-ins."""
    if not isinstance(data, dict):
        return None
    fixed = copy.deepcopy(data)
    questions = fixed.get("questions")
    stem = file.name.split(".")[0]
    keys: set[str] = set()
    for error in errors:
        loc, kind = error["loc"], error["type"]
        if len(loc) == 1 and loc[0] in _TEXTS and kind in _TEXT_ERRORS:
            fixed[loc[0]] = "Stand-in text."
            keys.add(str(loc[0]))
        elif len(loc) >= 2 and loc[0] == "questions" and isinstance(questions, dict):
            qid = loc[1]
            question = questions.get(qid)
            if not isinstance(question, dict):
                return None
            if len(loc) == 3 and loc[2] in _TEXTS and kind in _TEXT_ERRORS:
                question[loc[2]] = f"Stand-in text {len(keys)}."
                keys.add(f"questions.{qid}.{loc[2]}")
            else:
                questions.pop(qid, None)
                keys.add(f"questions.{qid}")
        else:
            return None
    try:
        salvaged = model.model_validate(fixed)
    except ValidationError:
        return None
    sink.stand_ins.update((stem, key) for key in keys)
    return salvaged


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


def _kind(value: Any) -> Msg:
    if value is None:
        return Msg(N_("nothing"))
    if isinstance(value, dict):
        return Msg(N_("a mapping"))
    if isinstance(value, list):
        return Msg(N_("a list"))
    return Msg(N_("the text '{value}'"), value=value)


# Text keys a source may leave out; a translation may leave out any (English is shown instead).
_OPTIONAL_IN_SOURCE = frozenset({"unit"})


def _empty(name: str, translation: bool, given: object) -> Msg:
    """An empty text, with the fix that works: removing the key is one only where the key is
    optional (issue 28 #13: "or remove the key" on an explanation led to "missing required
    field")."""
    removable = translation or name in _OPTIONAL_IN_SOURCE
    if given is None:
        if removable:
            return Msg(N_("empty: write the text, or remove the key"))
        return Msg(N_("empty: write the text (this key is required)"))
    if removable:
        return Msg(N_("empty text: write the text, or remove the key"))
    return Msg(N_("empty text: write the text (this key is required)"))


def _message(error: Any, path: KeyPath, empty_file: bool, translation: bool) -> str:
    """Pydantic's error in our own words (`Msg`, so a chat shows it in the reader's language);
    an error type not mapped here keeps pydantic's English."""
    kind: str = error["type"]
    name = str(path[-1]) if path else ""
    given = error.get("input")
    if kind == "missing":
        return Msg(_MISSING.get(name, N_("missing required field '{name}'")), name=name)
    if kind == "extra_forbidden":
        if translation and name in _SOURCE_ONLY:
            return Msg(
                N_("'{name}' belongs in the English source only; a translation cannot change it"),
                name=name,
            )
        close = difflib.get_close_matches(name, sorted(_KNOWN_FIELDS), n=1, cutoff=0.7)
        if close:
            return Msg(N_("unknown key '{name}' (did you mean '{close}'?)"), name=name,
                       close=close[0])  # fmt: skip
        return Msg(N_("unknown key '{name}'"), name=name)
    if kind in {"model_type", "model_attributes_type", "dict_type"}:
        if empty_file and not path:
            return Msg(N_("the file is empty"))
        return Msg(N_("expected key: value lines here, found {found}"), found=_kind(given))
    if kind == "string_type":
        if given is None:
            return _empty(name, translation, given)
        return Msg(N_("expected text, found {found} (check the indentation)"), found=_kind(given))
    if kind == "list_type" and path[:1] == ("questions",) and name == "answer":
        return Msg(N_("expected one option id (e.g. answer: b), found {found}"),
                   found=_kind(given))  # fmt: skip
    if kind == "list_type":
        return Msg(N_("expected a list such as [en, fr], found {found}"), found=_kind(given))
    if kind == "string_too_short":
        return _empty(name, translation, given)
    if kind == "too_short":
        return Msg(N_("needs at least one entry"))
    if kind == "string_pattern_mismatch":
        return Msg(
            N_("'{given}' is not a language code (two or three lowercase letters, e.g. fr)"),
            given=given,
        )
    if kind == "enum":
        return Msg(N_("'{given}' is not allowed: use one of {expected}"), given=given,
                   expected=error["ctx"]["expected"])  # fmt: skip
    if kind == "literal_error":
        return Msg(N_("'{given}' is not allowed: use one of {expected}"), given=given,
                   expected=error["ctx"]["expected"])  # fmt: skip
    if kind in {"float_parsing", "float_type", "int_parsing", "int_type", "finite_number"}:
        return Msg(N_("expected a number, found {found}"), found=_kind(given))
    if kind in {"bool_parsing", "bool_type"}:
        return Msg(N_("expected true or false, found {found}"), found=_kind(given))
    if kind in {"too_long", "string_too_long"}:
        return Msg(N_("too long: at most {n}"), n=error["ctx"]["max_length"])
    if kind == "value_error":
        cause = error["ctx"]["error"]
        if cause.args and isinstance(cause.args[0], Msg) and cause.args[0].msgid == BLANK:
            return _empty(name, translation, given)
        return cause.args[0] if cause.args and isinstance(cause.args[0], Msg) else str(cause)
    return Msg(N_("not a valid value here ({reason})"), reason=str(error["msg"]))
