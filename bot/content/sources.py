"""Find the content directory and read its files into validated models, keeping their lines.

Layout (relative to the content directory):
    guides.yaml                      guide paths (required)
    glossary.yaml                    known mistranslations (optional)
    quizzes/**/<name>.yaml           a quiz in English: structure, answer key, strings
    quizzes/**/<name>.<lang>.yaml    its translation into <lang>, beside it
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel

from bot.content.problems import N_, Msg, Problems
from bot.content.schema import GlossaryFile, GuidesFile, QuizSource, QuizTranslation
from bot.content.validation import validate
from bot.content.yaml_mistakes import CUT_BY_COMMENT
from bot.content.yaml_nodes import DuplicateKey, YamlDoc, YamlSyntaxError, key_str, parse_yaml
from bot.core.models import SOURCE_LANGUAGE

M = TypeVar("M", bound=BaseModel)
# Told the path and text of every file read, in reading order (the start-up cache's digest).
OnRead = Callable[[Path, str], None]

CONTENT_DIR_ENV = "QUIZBOT_CONTENT_DIR"
# bot/content/sources.py -> the checkout's root, where content/ and schema/ live.
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
_FILE_NAME = re.compile(r"^(?P<name>[A-Za-z0-9_-]+)(?:\.(?P<lang>[a-z]{2,3}))?\.yaml$")


def default_content_dir() -> Path:
    """$QUIZBOT_CONTENT_DIR, else ./content, else the checkout's content/ (run elsewhere)."""
    if env := os.environ.get(CONTENT_DIR_ENV):
        return Path(env)
    here = Path("content")
    if here.is_dir():
        return here
    packaged = PACKAGE_ROOT / "content"
    return packaged if packaged.is_dir() else here


@dataclass(frozen=True, slots=True)
class Parsed(Generic[M]):
    """A validated file: its model, and its YAML lines for later checks to point at."""

    path: Path
    model: M
    doc: YamlDoc


@dataclass(slots=True)
class QuizFiles:
    source: Parsed[QuizSource]
    translations: dict[str, Parsed[QuizTranslation]] = field(default_factory=dict)
    unreadable: set[str] = field(default_factory=set)  # languages whose file has errors


@dataclass(slots=True)
class Content:
    root: Path
    guides: Parsed[GuidesFile] | None = None
    glossary: Parsed[GlossaryFile] | None = None
    quizzes: list[QuizFiles] = field(default_factory=list)  # sorted by source path


def read_content(root: Path, sink: Problems, *, on_read: OnRead | None = None) -> Content:
    """Every file that parses and validates; the others are reported in `sink` and left out.

    `on_read` sees the text of every file as it is read (a file that cannot be read is an error).
    """
    content = Content(root)
    if not root.is_dir():
        sink.error(root, 1, "", Msg(N_("content directory not found")))
        return content
    guides_path = root / "guides.yaml"
    if guides_path.is_file():
        content.guides = parse_file(guides_path, GuidesFile, sink, on_read=on_read)
    else:
        sink.error(
            guides_path, 1, "", Msg(N_("missing guides.yaml: every quiz needs a guide path"))
        )
    glossary_path = root / "glossary.yaml"
    if glossary_path.is_file():
        content.glossary = parse_file(glossary_path, GlossaryFile, sink, on_read=on_read)

    sources: dict[Path, QuizFiles] = {}
    pending: list[tuple[Path, str, Path]] = []  # (translation, lang, its source)
    for path in sorted((root / "quizzes").rglob("*.y*ml")):
        match = _FILE_NAME.match(path.name)
        if path.suffix == ".yml" or not match:
            sink.error(
                path,
                1,
                "",
                Msg(
                    N_(
                        "file name must be <name>.yaml or <name>.<lang>.yaml (name: letters, "
                        "digits, _ and -; lang: e.g. fr)"
                    )
                ),
            )
            continue
        lang = match["lang"]
        if lang is None:
            if (source := parse_file(path, QuizSource, sink, on_read=on_read)) is not None:
                sources[path] = QuizFiles(source)
        elif lang == SOURCE_LANGUAGE:
            sink.error(path, 1, "", Msg(N_("English lives in {name}.yaml; remove this file"),
                                        name=match["name"]))  # fmt: skip
        else:
            pending.append((path, lang, path.with_name(f"{match['name']}.yaml")))
    for path, lang, source_path in pending:
        if not source_path.is_file():
            sink.error(path, 1, "", Msg(N_("translation without a source: {file} not found"),
                                        file=source_path.name))  # fmt: skip
            continue
        parsed = parse_file(path, QuizTranslation, sink, translation=True, on_read=on_read)
        if source_path in sources:
            files = sources[source_path]
            if parsed is None:
                files.unreadable.add(lang)
            else:
                files.translations[lang] = parsed
    content.quizzes = [sources[p] for p in sorted(sources)]
    return content


def parse_file(
    path: Path,
    model: type[M],
    sink: Problems,
    *,
    translation: bool = False,
    on_read: OnRead | None = None,
) -> Parsed[M] | None:
    """Read, parse and validate one file; None (with problems in `sink`) if it is unusable."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:  # Notepad's "ANSI", Excel's CSV: cp1252, Latin-1...
        bad = exc.object[exc.start : exc.start + 1].hex()
        line = exc.object[: exc.start].count(b"\n") + 1
        sink.error(path, line, "", Msg(N_("the file is not UTF-8 (byte 0x{byte} on this line): "
                                          "save it as UTF-8"), byte=bad))  # fmt: skip
        return None
    except OSError as exc:
        sink.error(path, 1, "", Msg(N_("cannot read the file: {reason}"), reason=str(exc)))
        return None
    if on_read is not None:
        on_read(path, text)
    try:
        doc = parse_yaml(text)
    except YamlSyntaxError as exc:
        sink.error(path, exc.line, "", exc.message)
        return None
    for duplicate in doc.duplicates:
        sink.error(path, duplicate.line, key_str(duplicate.path), _duplicate_message(duplicate))
    for at, line in doc.cut:
        sink.warn(path, line, key_str(at), Msg(CUT_BY_COMMENT, key=at[-1]))
    parsed = validate(doc, model, path, sink, translation=translation)
    return None if parsed is None else Parsed(path, parsed, doc)


def _duplicate_message(duplicate: DuplicateKey) -> str:
    parent = duplicate.path[-2] if len(duplicate.path) > 1 else None
    message = {
        "questions": N_("duplicate question id '{id}' (first at line {line})"),
        "options": N_("duplicate option id '{id}' (first at line {line})"),
        "guides": N_("duplicate guide id '{id}' (first at line {line})"),
    }.get(str(parent), N_("duplicate key '{id}' (first at line {line})"))
    return Msg(message, id=duplicate.path[-1], line=duplicate.first_line)
