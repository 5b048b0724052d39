"""A translator's round trip through PO files: `quizbot content po export` / `po import`.

Export writes one PO file per quiz and language, which Poedit, Weblate or Pontoon open: each
entry is one string, `msgctxt` its key (`questions.<id>.options.<id>`), `msgid` the English
source, `msgstr` the translation so far, and the translator comments say what the string is for
(the right option or a wrong one, why, and the numbers, names and code it must keep). A key
listed in `same_as_source` carries the `same-as-source` flag.

Import writes the strings back into `<quiz>.<lang>.yaml` (its comments, `reviewed:` and image
files kept), then runs the checker: a file with errors is put back as it was and every problem
is reported at the PO file's line. An entry whose English changed since the export, or whose key
the source no longer has, is refused; a fuzzy entry is left as it was. Importing an unchanged PO
file changes nothing, byte for byte.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, read_po, write_po

from bot.content import drift, quality
from bot.content.checks import IDENTICAL
from bot.content.loader import check
from bot.content.problems import Msg, Problems, Severity
from bot.content.schema import QuestionSource, QuizSource, QuizTranslation
from bot.content.sources import Content, QuizFiles, read_content
from bot.content.translation_yaml import translation_file
from bot.content.translations import source_strings, translated_strings
from bot.content.yaml_nodes import KeyPath, key_str
from bot.core.models import SOURCE_LANGUAGE

SAME_AS_SOURCE = "same-as-source"
# What `po import` says of a string left as the English: the YAML's `same_as_source` list is
# this flag in a PO file (the command line speaks English, as its other messages).
_FLAG_HINT = f"give the entry the {SAME_AS_SOURCE} flag (a line `#, {SAME_AS_SOURCE}` above it)"


@dataclass(frozen=True, slots=True)
class PoProblem:
    line: int  # of the PO file (0: the file as a whole)
    key: str
    message: str
    warning: bool = False

    def format(self, po: Path) -> str:
        where = f"{po}:{self.line}:" if self.line else f"{po}:"
        kind = "warning" if self.warning else "error"
        return f"{where} {self.key + ': ' if self.key else ''}{kind}: {self.message}"


@dataclass(slots=True)
class Imported:
    """What one `po import` did: the file written (None when nothing was), and the problems."""

    yaml: Path | None = None
    problems: list[PoProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(not p.warning for p in self.problems)


_LANG = re.compile(r"^[a-z]{2,3}$")


def language_problem(lang: str) -> str | None:
    """Why `lang` cannot name a translation file (None when it can): a translation's file is
    `<quiz>.<lang>.yaml`, so the code is 2 or 3 lowercase letters, and English is the source."""
    regional = re.fullmatch(r"([a-z]{2,3})[_-][A-Za-z0-9]+", lang)
    if regional is not None and regional[1] != SOURCE_LANGUAGE:
        # Poedit writes fr_FR when "French (France)" is picked: say what to pick instead. Not
        # read as fr: pt_BR and pt_PT are two translations, and one must not overwrite the other.
        return f"'{lang}' names a region: set it to {regional[1]}, as the files are named"
    if not _LANG.match(lang):
        return f"'{lang}' is not a language code such as fr or wo"
    if lang == SOURCE_LANGUAGE:
        return "English is the source: edit the quiz's own YAML, it has no translation file"
    return None


def export_po(content_dir: Path, lang: str, out_dir: Path) -> list[Path]:
    """One `<quiz>.<lang>.po` per quiz under `out_dir`; the paths written (`lang` checked with
    `language_problem` first)."""
    content = read_content(content_dir, Problems())
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for files in content.quizzes:
        path = out_dir / f"{files.source.path.stem}.{lang}.po"
        path.write_bytes(po_bytes(files, lang))
        written.append(path)
    return written


def po_bytes(files: QuizFiles, lang: str) -> bytes:
    quiz = files.source.model
    parsed = files.translations.get(lang)
    mine = translated_strings(parsed.model) if parsed else {}
    same = set(parsed.model.same_as_source) if parsed else set()
    catalog = Catalog(
        locale=_locale(lang),
        project=quiz.id,
        version="1",
        header_comment=(
            f"# {quiz.title} ({quiz.id}): the {lang} strings, for a translator.\n"
            f"# msgctxt is the key in {files.source.path.stem}.{lang}.yaml, msgid the English.\n"
            "# Import with: quizbot content po import THIS_FILE"
        ),
        fuzzy=False,
    )
    for at, english in source_strings(quiz).items():
        key = key_str(at)
        catalog.add(
            english,
            mine.get(at, ""),
            context=key,
            auto_comments=facts(quiz, at, english, lang),
            flags=[SAME_AS_SOURCE] if key in same else [],
        )
    out = io.BytesIO()
    write_po(out, catalog, width=76, sort_output=False, include_previous=False)
    return out.getvalue()


def _locale(lang: str) -> Locale | str:
    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return lang


def facts(quiz: QuizSource, at: KeyPath, english: str, lang: str) -> list[str]:
    """The translator comments of one string: what it is, and what must not move."""
    notes: list[str] = []
    if at[0] == "questions":
        question = quiz.questions[str(at[1])]
        notes += _question_facts(question, at, lang)
    elif at == ("title",):
        notes.append("The quiz's title.")
    else:
        notes.append("One line saying what the quiz covers.")
    if kept := drift.keep_list(english):
        notes.append(f"Keep exactly as in the English: {kept}.")
    return notes


def _question_facts(question: QuestionSource, at: KeyPath, lang: str) -> list[str]:
    kind = {"single": "one right option", "multiple": "select every right option"}.get(
        question.kind, question.kind.replace("_", "/")
    )
    notes = [f"Question {at[1]} ({kind})."]
    field = at[2]
    if field == "options":
        option = str(at[3])
        right = isinstance(question.answer, list) and option in question.answer
        if question.kind == "true_false":
            labels = drift.TRUE_FALSE_LABELS.get(lang)
            word = f": write '{labels[0 if option == 'true' else 1]}'" if labels else ""
            notes.append(f"The '{option}' label{word}.")
        else:
            notes.append(
                "This option is RIGHT." if right else "This option is wrong: keep it wrong."
            )
    elif field == "unit":
        notes.append("The unit shown after the number (Go for GB in French).")
    elif field in ("image", "explanation_image"):
        notes.append("What the picture shows, for whoever cannot see it.")
    if field != "explanation":
        notes.append(f"Why: {quality.first_sentence(question.explanation.strip())}")
    return notes


def import_po(po: Path, content_dir: Path) -> Imported:
    """Write one PO file's strings back into its translation file, then check the content."""
    done = Imported()
    try:
        with po.open("rb") as handle:
            catalog = read_po(handle, abort_invalid=True)
    except (OSError, PoFileError, ValueError, UnicodeDecodeError) as exc:
        done.problems.append(PoProblem(0, "", f"cannot read the PO file: {exc}"))
        return done
    lang, quiz_id = str(catalog.locale_identifier or ""), catalog.project
    if (problem := language_problem(lang)) is not None:
        where = " (Poedit: Translation > Properties > Language)" if "_" in lang else ""
        done.problems.append(PoProblem(0, "", f"the PO file's Language header: {problem}{where}"))
        return done
    content = read_content(content_dir, Problems())
    files = next((f for f in content.quizzes if f.source.model.id == quiz_id), None)
    if files is None:
        done.problems.append(PoProblem(0, "", f"no quiz '{quiz_id}' in {content_dir}"))
        return done
    if lang in files.unreadable:
        done.problems.append(
            PoProblem(0, "", f"{files.source.path.stem}.{lang}.yaml has errors: fix it first")
        )
        return done
    return _write_back(catalog, files, lang, content, done)


def _write_back(
    catalog: Catalog, files: QuizFiles, lang: str, content: Content, done: Imported
) -> Imported:
    english = source_strings(files.source.model)
    keys = {key_str(at): at for at in english}
    parsed = files.translations.get(lang)
    strings = translated_strings(parsed.model) if parsed else {}
    lines: dict[str, int] = {}
    same: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        key = str(message.context or "")
        lines[key] = message.lineno or 0
        refused = _entry_problem(message, key, keys, english)
        if refused is not None:
            done.problems.append(PoProblem(lines[key], key, *refused))
            continue
        if SAME_AS_SOURCE in message.flags:
            same.append(key)
        text = message.string if isinstance(message.string, str) else ""
        if text.strip():
            strings[keys[key]] = text
        else:
            strings.pop(keys[key], None)
    if not done.ok:
        return done
    path = files.source.path.with_name(f"{files.source.path.stem}.{lang}.yaml")
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    text = translation_file(
        strings,
        list(english),
        header=_header(old, lang, files.source.path.name),
        reviewed=parsed.model.reviewed if parsed else False,
        same_as_source=[k for k in keys if k in same],
        image_files=_image_files(parsed.model) if parsed else None,
    )
    if parsed is not None and _unchanged(parsed.model, strings, same):
        return done  # nothing to write: the file stays byte for byte
    path.write_text(text, encoding="utf-8")
    done.yaml = path
    report = check(content.root)
    for problem in report.problems:
        if problem.file.resolve() != path.resolve():
            continue
        warning = problem.severity is Severity.WARNING
        said: str = problem.message
        if getattr(said, "msgid", None) == IDENTICAL:  # the YAML's list is the PO's flag
            said = Msg(IDENTICAL, mark=_FLAG_HINT)
        done.problems.append(PoProblem(lines.get(problem.key, 0), problem.key, said, warning))
    if not done.ok:  # put the file back: the bot must not start on a broken translation
        if old is None:
            path.unlink()
        else:
            path.write_text(old, encoding="utf-8")
        done.yaml = None
    return done


def _entry_problem(
    message: Message, key: str, keys: dict[str, KeyPath], english: dict[KeyPath, str]
) -> tuple[str] | tuple[str, bool] | None:
    if key not in keys:
        return (f"'{key}' is not a key of the English source (renamed or removed?)",)
    if message.id != english[keys[key]]:
        return ("the English changed since this file was exported: export again",)
    if message.fuzzy:
        return ("fuzzy (marked as needing work): left as it was", True)
    return None


def _unchanged(model: QuizTranslation, strings: dict[KeyPath, str], same: list[str]) -> bool:
    return translated_strings(model) == strings and sorted(model.same_as_source) == sorted(same)


def _header(old: str | None, lang: str, source_name: str) -> list[str]:
    """The existing file's leading comments, or a new file's own."""
    if old is None:
        return [
            f"# {lang} translation of {source_name}, written by `quizbot content po import`.",
            "# The same keys as the source, strings only: the answer key lives in the source.",
        ]
    header = []
    for line in old.splitlines():
        if not line.startswith("#"):
            break
        header.append(line)
    return header


def _image_files(model: QuizTranslation) -> dict[tuple[str, str], str]:
    out = {}
    for qid, question in model.questions.items():
        for field_name in ("image", "explanation_image"):
            image = getattr(question, field_name)
            if image is not None and image.file is not None:
                out[qid, field_name] = image.file
    return out
