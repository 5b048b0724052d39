"""An uploaded quiz file -> a checked Quiz, through the same checker as the shipped content.

The bytes come from a chat, so they are hostile until proven otherwise: size first, then strict
UTF-8 (for the text formats; Moodle XML, QTI packages and Anki decks are read as bytes by their
hardened parsers: `formats.safe_xml`, `formats.safe_zip`), then the format's parser with its
limits, then the content checker (YAML through
`parse_yaml`'s bounded loader) over a throw-away content directory that holds the deployment's
guides and the uploaded quiz. Nothing here touches the served catalogue or the database; the
caller decides what to do with a clean result. Pure but for the temporary directory.
"""

from __future__ import annotations

import base64
import binascii
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from bot.content.formats import BINARY_PARSERS
from bot.content.loader import check, load_catalog
from bot.content.problems import N_, ContentError, Msg, Severity
from bot.content.upload_formats import write_converted
from bot.content.upload_limits import UPLOAD_LIMITS, UploadLimits, UploadProblem
from bot.core.models import GuidePath, Quiz

YAML, GIFT, AIKEN, CSV = "yaml", "gift", "aiken", "csv"
# File name suffix -> a format read as bytes (only once its module has registered a parser).
BINARY_SUFFIXES = {"xml": "moodle", "zip": "qti", "apkg": "anki", "colpkg": "anki"}
# How a binary file is kept in the store's text column (uploaded_quizzes.source).
_BASE64 = "base64:"


@dataclass(frozen=True, slots=True)
class CheckedUpload:
    fmt: str
    # None when any problem is an error. Its guide is the one a YAML file names; the other
    # formats name none, so theirs is None (an admin may pick one: `QuizUploads.set_guide`).
    quiz: Quiz | None
    problems: tuple[UploadProblem, ...]
    guides: Mapping[str, GuidePath] = field(default_factory=dict)  # the deployment's
    # Whether the file itself says which guide the quiz belongs to (only YAML can, with
    # `guide:`; an uploaded YAML may leave it out, and then links to none, as the others).
    names_guide: bool = False

    @property
    def errors(self) -> list[UploadProblem]:
        return [p for p in self.problems if not p.warning]

    @property
    def warnings(self) -> list[UploadProblem]:
        return [p for p in self.problems if p.warning]


def _suffix(file_name: str) -> str:
    return file_name.rpartition(".")[2].lower() if "." in file_name else ""


def binary_format(file_name: str) -> str | None:
    """The bytes format a file name says (`.xml` Moodle XML, `.zip` QTI, `.apkg` Anki), when
    that format is registered; None for the text formats and unknown names."""
    fmt = BINARY_SUFFIXES.get(_suffix(file_name))
    return fmt if fmt in BINARY_PARSERS else None


def stored_source(file_name: str, data: bytes) -> str:
    """What the store keeps of an accepted file: its text, or for a bytes format its bytes in
    base64 behind a marker (the column is text; every reader goes through `source_bytes`)."""
    if binary_format(file_name) is not None:
        return _BASE64 + base64.b64encode(data).decode("ascii")
    return data.decode("utf-8")


def source_bytes(source: str) -> bytes:
    """The uploaded file's bytes back from `stored_source` (text stored before: as UTF-8)."""
    if source.startswith(_BASE64):
        try:
            return base64.b64decode(source[len(_BASE64) :], validate=True)
        except (binascii.Error, ValueError):
            pass  # not ours after all: a text file that starts with the marker
    return source.encode("utf-8")


def detect_format(file_name: str, text: str) -> str | None:
    """The format a file name says (GIFT in a .txt when it has braces), else None."""
    suffix = _suffix(file_name)
    if suffix in ("yaml", "yml"):
        return YAML
    if suffix == "gift":
        return GIFT
    if suffix == "csv":
        return CSV
    if suffix == "txt":
        return GIFT if "{" in text else AIKEN
    return None


def _refused(fmt: str, line: int, code: str, detail: str = "") -> CheckedUpload:
    return CheckedUpload(fmt, None, (UploadProblem(line, code, detail),))


def check_upload(
    file_name: str, data: bytes, guides_from: Path, limits: UploadLimits = UPLOAD_LIMITS
) -> CheckedUpload:
    """Check one uploaded file; `guides_from` is the content directory whose guides.yaml (and
    glossary) uploaded quizzes may name. Never raises for bad input."""
    if len(data) > limits.max_bytes:
        return _refused("", 0, "too_big", str(len(data)))
    binary = binary_format(file_name)
    if binary is not None:
        return _in_workdir(guides_from, binary, file_name, data, limits)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return _refused("", line, "not_utf8")
    fmt = detect_format(file_name, text)
    if fmt is None:
        return _refused("", 0, "unknown_format")
    if "\x00" in text:
        return _refused(fmt, text[: text.index("\x00")].count("\n") + 1, "not_utf8")
    return _in_workdir(guides_from, fmt, file_name, data, limits)


def _in_workdir(
    guides_from: Path, fmt: str, file_name: str, data: bytes, limits: UploadLimits
) -> CheckedUpload:
    """The file converted and checked in a throw-away content directory with the guides."""
    with tempfile.TemporaryDirectory(prefix="quizbot-upload-") as tmp:
        root = Path(tmp)
        for name in ("guides.yaml", "glossary.yaml"):
            if (guides_from / name).is_file():
                shutil.copyfile(guides_from / name, root / name)
        (root / "quizzes").mkdir()
        notes, lines, named = _write_quiz(root, fmt, file_name, data, limits)
        return _checked(root, fmt, notes, lines, limits, named)


def _write_quiz(
    root: Path, fmt: str, file_name: str, data: bytes, limits: UploadLimits
) -> tuple[list[UploadProblem], dict[str, int] | None, bool]:
    """The quiz written as content files under `root`; the format's own notes, by line; for
    a converted file the uploaded file's line of each question and option (None for YAML, whose
    lines the checker reads itself); and whether the file names its guide."""
    if fmt == YAML:
        named = _GUIDE_KEY.search(data) is not None
        if not named:  # the schema needs one: the first stands in, and `_checked` takes it off
            data += f"\nguide: {next(iter(_guide_ids(root)), 'none')}\n".encode()
        (root / "quizzes" / "upload.yaml").write_bytes(data)
        return [], None, named
    return (*write_converted(root, fmt, file_name, data, limits), False)


# A top-level `guide:` key in an uploaded YAML (at the start of a line, no indent).
_GUIDE_KEY = re.compile(rb"(?m)^guide[ \t]*:")


def _guide_ids(root: Path) -> list[str]:
    from bot.content.importer import ImportFailed, guide_ids

    try:
        return guide_ids(root)
    except ImportFailed:  # no guides.yaml: the checker says what is wrong
        return []


def _source_line(
    line: int, key: str, lines: dict[str, int] | None, file: Path | None = None
) -> int:
    """The checker's line, or for a converted file the uploaded file's line of the question or
    option the key is under (0 when the key is in no question: the YAML line means nothing);
    a translation's problem (`file` <quiz>.<lang>.yaml) points at that language's row."""
    if lines is None:
        return line
    lang = file.name.split(".")[-2] if file is not None and file.name.count(".") == 2 else None
    while key:
        if lang is not None and f"{lang}:{key}" in lines:
            return lines[f"{lang}:{key}"]
        if key in lines:
            return lines[key]
        key = key.rpartition(".")[0]
    return 0


def _translation_lang(file: Path) -> str:
    """`fr` for quizzes/upload.fr.yaml; "" for the source."""
    return file.name.split(".")[-2] if file.name.count(".") == 2 else ""


def _checked(
    root: Path,
    fmt: str,
    notes: list[UploadProblem],
    lines: dict[str, int] | None,
    limits: UploadLimits,
    named: bool,
) -> CheckedUpload:
    report = check(root)
    problems = list(notes)
    for problem in report.problems:
        if problem.file.name in ("guides.yaml", "glossary.yaml"):
            continue  # the deployment's files, checked at start-up
        problems.append(
            UploadProblem(
                _source_line(problem.line, problem.key, lines, problem.file),
                "checker",
                problem.message,
                warning=problem.severity is Severity.WARNING,
                key=problem.key,
                lang=_translation_lang(problem.file),
            )
        )
    if any(not p.warning for p in problems):
        return CheckedUpload(fmt, None, tuple(problems))
    try:
        catalog = load_catalog(root)
    except ContentError as err:  # not expected after a clean check; reported all the same
        extra = [
            UploadProblem(_source_line(p.line, p.key, lines), "checker", p.message, key=p.key)
            for p in err.problems
        ]
        return CheckedUpload(fmt, None, tuple(problems + extra))
    quizzes = list(catalog)
    if len(quizzes) != 1:
        return CheckedUpload(fmt, None, (*problems, UploadProblem(0, "not_one_quiz")))
    quiz = quizzes[0]
    over = _over_limits(quiz, limits)
    if over:
        return CheckedUpload(fmt, None, (*problems, *over))
    if not named:
        # The schema needs a guide, so the checked YAML names one; the file did not, and an
        # unrelated guide on every reveal misleads learners: none until an admin picks one.
        quiz = replace(quiz, guide=None)
    return CheckedUpload(fmt, quiz, tuple(problems), dict(catalog.guides), named)


def _over_limits(quiz: Quiz, limits: UploadLimits) -> list[UploadProblem]:
    found: list[UploadProblem] = []
    if len(quiz.questions) > limits.max_questions:
        found.append(UploadProblem(0, "too_many_questions", str(limits.max_questions)))
    longer = N_("longer than {n} characters")
    if any(len(t) > limits.max_title_chars for t in quiz.title.values.values()):
        found.append(
            UploadProblem(0, "checker", Msg(longer, n=limits.max_title_chars), key="title")
        )
    for question in quiz.questions:
        at = f"questions.{question.id}"
        if len(question.options) > limits.max_options:
            message = Msg(N_("too many options (at most {n})"), n=limits.max_options)
            found.append(UploadProblem(0, "checker", message, key=f"{at}.options"))
        checks = [("prompt", question.prompt.values.values(), limits.max_prompt_chars),
                  ("explanation", question.explanation.values.values(),
                   limits.max_explanation_chars)]  # fmt: skip
        checks += [(f"options.{o.id}", o.text.values.values(), limits.max_option_chars)
                   for o in question.options]  # fmt: skip
        for what, texts, most in checks:
            if any(len(t) > most for t in texts):
                found.append(UploadProblem(0, "checker", Msg(longer, n=most), key=f"{at}.{what}"))
    return found
