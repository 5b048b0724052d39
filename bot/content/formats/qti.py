"""IMS QTI 2.1 content packages <-> quiz drafts (`--format qti`), for an LMS that speaks QTI.

`write` is bot/content/formats/qti_writer.py; `parse` reads a package (a zip with an
`imsmanifest.xml`), trusting none of it:

- the zip through `safe_zip` (member count, inflated sizes and ratio bounded before anything is
  inflated, unsafe member names refused), every XML member through `safe_xml` (no DTD, so no
  entity of any kind; size, depth and element count bounded);
- the manifest's `imsqti_test_xmlv2p1` resources become one quiz each (the test's title, its
  rubricBlock the description, its assessmentItemRefs the questions in order, each ref's
  identifier the question's id); item resources no test refers to form one more quiz named
  after the file; QTI 1.x resources (what Canvas exports by default) are reported, not read;
- each item is read by `qti_item.read_item`; what it leaves out is named as
  `items/q3.xml:12` (the member and its own line) so the uploader finds it.

A bare assessmentItem file (not zipped) is read too, as a package of that one item.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
    Limits,
    ParseResult,
    slug,
    unique,
)
from bot.content.formats.html_text import html_to_text
from bot.content.formats.qti_item import read_item
from bot.content.formats.qti_item_read import ItemRead, Report
from bot.content.formats.qti_names import ITEM_TYPES, MANIFEST, OLD_QTI, TEST_TYPES
from bot.content.formats.qti_text import inner_html, local
from bot.content.formats.qti_writer import write
from bot.content.formats.safe_xml import XmlLimits, XmlRefused, line_of, parse_xml
from bot.content.formats.safe_zip import SafeZip, ZipLimits, ZipRefused
from bot.content.problems import N_, Msg

__all__ = ["parse", "write"]


@dataclass(slots=True)
class _Quiz:
    title: str
    line: int
    description: str = ""
    refs: list[tuple[str, str]] = field(default_factory=list)  # (member path, question id)


class _Package:
    """The members of one package, read under the limits, and the problems they raise."""

    def __init__(
        self, archive: SafeZip | None, single: bytes, result: ParseResult, limits: Limits
    ) -> None:
        self.archive, self.single = archive, single
        self.result, self.limits = result, limits
        self.xml_limits = XmlLimits(max_bytes=limits.max_bytes)

    def has(self, path: str) -> bool:
        return self.archive is not None and path in self.archive.names()

    def xml(self, path: str) -> Element | None:
        """A member's root element, or None (the reason reported at its line)."""
        report = Report(self.result, path)
        try:
            data = self.archive.read(path) if self.archive is not None else self.single
            return parse_xml(data, self.xml_limits)
        except KeyError:
            self.result.skip(1, Msg(N_("{file} is not in the package"), file=path))
        except ZipRefused as exc:
            self.result.skip(1, exc.message)
        except XmlRefused as exc:
            report.skip(max(exc.line, 1), exc.message)
        return None

    def picture(self, item_path: str, src: str, line: int) -> DraftPicture | None:
        report = Report(self.result, item_path)
        path = _resolve(posixpath.dirname(item_path), src)
        if path is None or not self.has(path) or self.archive is None:
            report.note(line, Msg(N_("picture {src} is not in the package: left out"), src=src))
            return None
        try:
            data = self.archive.read(path)
        except ZipRefused as exc:
            report.note(line, exc.message)
            return None
        return DraftPicture(posixpath.basename(path), data)


def _resolve(folder: str, href: str) -> str | None:
    """`href` relative to `folder` inside the package; None when it leaves it or is a URL."""
    if not href or ":" in href.split("/", 1)[0] or href.startswith("/"):
        return None
    path = posixpath.normpath(posixpath.join(folder, href.split("#", 1)[0]))
    return None if path.startswith("../") or path == ".." else path


def parse(
    data: bytes, name: str = "quiz", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    """Every question of a QTI 2.1 package that quizbot can ask, one draft per test."""
    result = ParseResult()
    if len(data) > limits.max_bytes:
        result.skip(
            1,
            Msg(N_("the file is {size} bytes; at most {most} are accepted"), size=len(data),
                most=limits.max_bytes),
        )  # fmt: skip
        return result
    if data.lstrip()[:1] == b"<":  # a lone assessmentItem, not zipped
        package = _Package(None, data, result, limits)
        quizzes = [_Quiz(name, 1, refs=[(f"{name}.xml", "")])]
    else:
        try:
            archive = SafeZip(data, ZipLimits.for_input(limits.max_bytes))
        except ZipRefused as exc:
            result.skip(1, exc.message)
            return result
        package = _Package(archive, b"", result, limits)
        if not package.has(MANIFEST):
            result.skip(1, Msg(N_("no imsmanifest.xml: not an IMS content package")))
            return result
        found = _quizzes(package, name)
        if found is None:
            return result
        quizzes = found
    result.quizzes.extend(_drafts(package, quizzes, lang))
    return result


def _quizzes(package: _Package, name: str) -> list[_Quiz] | None:
    manifest = package.xml(MANIFEST)
    if manifest is None:
        return None
    report = Report(package.result, MANIFEST)
    items: list[str] = []
    tests: list[tuple[str, int]] = []
    for resource in manifest.iter():
        if local(resource.tag) != "resource":
            continue
        kind, line = resource.get("type", ""), line_of(resource)
        href = resource.get("href") or next(
            (f.get("href", "") for f in resource if local(f.tag) == "file"), ""
        )
        path = _resolve("", href)
        if OLD_QTI.match(kind):
            report.skip(line, Msg(N_("a QTI 1.x resource ({type}): quizbot reads QTI 2.1; "
                                     "export the bank as QTI 2.1"), type=kind))  # fmt: skip
        elif (ITEM_TYPES.match(kind) or TEST_TYPES.match(kind)) and path is None:
            report.skip(line, Msg(N_("unsafe or missing href: {href}"), href=href))
        elif path is not None and ITEM_TYPES.match(kind):
            items.append(path)
        elif path is not None and TEST_TYPES.match(kind):
            tests.append((path, line))
    quizzes = [quiz for path, line in tests if (quiz := _test(package, path)) is not None]
    referred = {path for quiz in quizzes for path, _ in quiz.refs}
    rest = [path for path in items if path not in referred]
    if rest:
        quizzes.append(_Quiz(name, 1, refs=[(path, "") for path in rest]))
    if not quizzes:
        package.result.skip(1, Msg(N_("the package has no QTI 2.1 item")))
    return quizzes


def _test(package: _Package, path: str) -> _Quiz | None:
    test = package.xml(path)
    if test is None:
        return None
    if local(test.tag) != "assessmentTest":
        Report(package.result, path).skip(
            line_of(test), Msg(N_("<{name}> is not an assessmentTest"), name=local(test.tag))
        )
        return None
    folder = posixpath.dirname(path)
    quiz = _Quiz(test.get("title", "") or slug(path, "quiz"), line_of(test))
    for element in test.iter():
        tag = local(element.tag)
        if tag == "rubricBlock" and not quiz.description:
            quiz.description = html_to_text(inner_html(element)).text
        elif tag == "assessmentItemRef":
            href = _resolve(folder, element.get("href", ""))
            if href is None:
                Report(package.result, path).skip(
                    line_of(element),
                    Msg(N_("unsafe or missing href: {href}"), href=element.get("href", "")),
                )
                continue
            quiz.refs.append((href, element.get("identifier", "")))
    return quiz


def _drafts(package: _Package, quizzes: list[_Quiz], lang: str) -> list[DraftQuiz]:
    out: list[DraftQuiz] = []
    quiz_ids: set[str] = set()
    count = 0
    for quiz in quizzes:
        questions: list[DraftQuestion] = []
        ids: set[str] = set()
        for path, ref in quiz.refs:
            count += 1
            if count > package.limits.max_questions:
                package.result.skip(
                    1,
                    Msg(N_("more than {n} questions: the rest is not read"),
                        n=package.limits.max_questions),
                )  # fmt: skip
                break
            root = package.xml(path)
            if root is None:
                continue
            number = len(questions) + 1
            wanted = slug(ref or root.get("identifier", ""), f"q{number}")
            qid = unique(wanted, ids)

            def pictures(src: str, line: int, item: str = path) -> DraftPicture | None:
                return package.picture(item, src, line)

            read = ItemRead(qid, Report(package.result, path), package.limits, pictures)
            question = read_item(root, read)
            if question is not None:
                questions.append(question)
            else:
                ids.discard(qid)
        if questions:
            quiz_id = unique(slug(quiz.title, "quiz"), quiz_ids)
            out.append(
                DraftQuiz(quiz_id, quiz.title, lang, tuple(questions), quiz.description, quiz.line)
            )
        if count > package.limits.max_questions:
            break
    return out
