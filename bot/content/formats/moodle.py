"""Moodle XML (`--format moodle`), Moodle's own question bank export, <-> quiz drafts.

`write` is bot/content/formats/moodle_writer.py; `parse` reads a file Moodle (or a teacher, by
the MoodleDocs page https://docs.moodle.org/en/Moodle_XML_format) wrote, trusting none of it:

- bytes through `safe_xml`: the size is checked first, a DTD (so any entity: billion laughs,
  external entities) is refused, nesting and the element count are bounded, the encoding is the
  one the file declares (invalid bytes refused with their line);
- the root is `<quiz>`; each `<question type="category">` starts a quiz titled after the last
  part of its path (`$course$/top/Week 1` -> Week 1; `//` is a / in a name), its `<info>` the
  description; a category named twice gathers its questions in one quiz; questions before any
  category form a quiz named after the file;
- each other `<question>` is read by `moodle_question`; what it leaves out or changes is named
  by the question's line and name (`question “Primes”: ...`), and the rest is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    DraftQuestion,
    DraftQuiz,
    Limits,
    ParseResult,
    clean_text,
    slug,
    unique,
)
from bot.content.formats.moodle_question import read_question
from bot.content.formats.moodle_read import Read, Report
from bot.content.formats.moodle_text import Fields, child, plain
from bot.content.formats.moodle_writer import write
from bot.content.formats.safe_xml import XmlLimits, XmlRefused, line_of, parse_xml
from bot.content.problems import N_, Msg

__all__ = ["parse", "write"]

# A category path's parts: split at a single /, `//` being a / inside a name (Moodle's rule).
_PATH_PART = re.compile(r"(?<!/)/(?!/)")
_CONTEXTS = re.compile(r"^\$[a-z]+\$$")  # $course$, $system$, $module$, $cat$...
_SUFFIX = re.compile(r"\.xml$", re.IGNORECASE)


@dataclass(slots=True)
class _Quiz:
    title: str
    line: int
    description: str = ""
    questions: list[DraftQuestion] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)


def category_title(path: str) -> str:
    """The last named part of a category path ("" for `$course$/top` alone)."""
    parts = [part.replace("//", "/").strip() for part in _PATH_PART.split(path.strip())]
    named = [p for p in parts if p and not _CONTEXTS.match(p)]
    if named[:1] == ["top"]:
        named = named[1:]
    return named[-1] if named else ""


def parse(
    data: bytes, name: str = "quiz", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    """Every question quizbot can ask from a Moodle XML file, one draft per category."""
    result = ParseResult()
    try:
        root = parse_xml(data, XmlLimits(max_bytes=limits.max_bytes))
    except XmlRefused as exc:
        result.skip(max(exc.line, 1), exc.message)
        return result
    if root.tag != "quiz":
        result.skip(line_of(root), Msg(N_("not Moodle XML: the file's root element is "
                                          "<{name}>, not <quiz>"), name=root.tag))  # fmt: skip
        return result
    file_title = _SUFFIX.sub("", name) or "quiz"
    quizzes: dict[str, _Quiz] = {}
    current = ""
    count = 0
    for element in root.findall("question"):
        line = line_of(element)
        if element.get("type") == "category":
            current = plain(child(element, "category"))
            quiz = quizzes.setdefault(current, _Quiz(category_title(current), line))
            info = child(element, "info")
            if info is not None and not quiz.description:
                quiz.description = Fields().read(info).text
            continue
        count += 1
        if count > limits.max_questions:
            result.skip(line, Msg(N_("more than {n} questions: the rest is not read"),
                                  n=limits.max_questions))  # fmt: skip
            break
        quiz = quizzes.setdefault(current, _Quiz("", line))
        question_name = plain(child(element, "name")) or f"{count}"
        qid = unique(slug(question_name, f"q{len(quiz.questions) + 1}"), quiz.ids)
        report = Report(result, question_name[:80], line)
        question = read_question(Read(element, qid, report, limits, lang, Fields()))
        if question is None:
            quiz.ids.discard(qid)
            continue
        wanted = slug(question_name, qid)
        if qid != wanted:
            result.note(line, Msg(N_("question id '{id}' taken: using '{other}'"), id=wanted,
                                  other=qid))  # fmt: skip
        quiz.questions.append(question)
    result.quizzes.extend(_drafts(quizzes, file_title, lang, result, limits))
    return result


def _drafts(
    quizzes: dict[str, _Quiz], file_title: str, lang: str, result: ParseResult, limits: Limits
) -> list[DraftQuiz]:
    out: list[DraftQuiz] = []
    taken: set[str] = set()
    for quiz in quizzes.values():
        if not quiz.questions:
            continue
        title = clean_text(quiz.title or file_title, quiz.line, result, limits)
        description = clean_text(quiz.description, quiz.line, result, limits)
        quiz_id = unique(slug(title, "quiz"), taken)
        out.append(DraftQuiz(quiz_id, title, lang, tuple(quiz.questions), description, quiz.line))
    return out
