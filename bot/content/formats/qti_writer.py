"""Quiz drafts -> an IMS QTI 2.1 content package (a zip), for an LMS that speaks QTI.

Layout, one folder per quiz (a quiz's id, with its language when a package holds several
languages of it):

    imsmanifest.xml             IMS CP 1.1: one imsqti_test_xmlv2p1 resource per quiz, one
                                imsqti_item_xmlv2p1 per question (its pictures as its files)
    <quiz>/test.xml             assessmentTest: the title, the description as a rubricBlock,
                                the questions in order (assessmentItemRef identifier = our id)
    <quiz>/items/<id>.xml       one assessmentItem per question
    <quiz>/media/<picture>      the pictures, referenced by <img src alt> from the items

Each item is written by qti_item_writer.py. Flashcards are not written (the exporter leaves
them out and says so): QTI's nearest item, an extendedTextInteraction, is an essay a teacher
marks, not a card a learner rates.

Deterministic: the same drafts give the same bytes (fixed member dates and order).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from xml.etree.ElementTree import Element, SubElement, tostring

from bot.content.formats.draft import FLASHCARD, DraftQuiz, slug
from bot.content.formats.qti_item_writer import Pictures, write_item
from bot.content.formats.qti_names import (
    CP_NS,
    CP_XSD,
    ITEM_TYPE,
    MANIFEST,
    QTI_NS,
    QTI_XSD,
    TEST_TYPE,
    XSI_NS,
    identifier,
)
from bot.content.formats.qti_text import q, rich

_DATE = (2020, 1, 1, 0, 0, 0)


def write(quizzes: Sequence[DraftQuiz]) -> bytes:
    """The package's bytes: every question of every draft but flashcards."""
    package = _Package()
    folders: set[str] = set()
    several = len(quizzes) > 1
    for number, quiz in enumerate(quizzes, start=1):
        wanted = slug(quiz.id, f"quiz{number}")
        folder = wanted if wanted not in folders else f"{wanted}-{slug(quiz.lang, str(number))}"
        while folder in folders:
            folder += f"-{number}"
        folders.add(folder)
        package.quiz(quiz, folder, number, several)
    return package.zipped()


def _xml(root: Element, namespace: str) -> bytes:
    """The document: `namespace` its default one, XSI declared for the schema location."""
    root.attrib = {"xmlns": namespace, "xmlns:xsi": XSI_NS, **root.attrib}
    body = tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n").encode("utf-8")


class _Package:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.manifest = Element(
            "manifest",
            {
                "identifier": "quizbot-package",
                "xsi:schemaLocation": f"{CP_NS} {CP_XSD} {QTI_NS} {QTI_XSD}",
            },
        )
        metadata = SubElement(self.manifest, "metadata")
        SubElement(metadata, "schema").text = "QTIv2.1 Package"
        SubElement(metadata, "schemaversion").text = "1.0.0"
        SubElement(self.manifest, "organizations")
        self.resources = SubElement(self.manifest, "resources")

    def _resource(self, rid: str, kind: str, href: str, files: Sequence[str]) -> Element:
        resource = SubElement(
            self.resources, "resource", {"identifier": rid, "type": kind, "href": href}
        )
        for name in (href, *files):
            SubElement(resource, "file", {"href": name})
        return resource

    def quiz(self, quiz: DraftQuiz, folder: str, number: int, several: bool) -> None:
        pictures = Pictures(folder)
        test, section = _test(quiz, folder)
        item_ids: list[str] = []
        taken: set[str] = set()
        for index, question in enumerate(quiz.questions, start=1):
            if question.kind == FLASHCARD:
                continue
            ref = identifier(question.id, f"q{index}")
            while ref in taken:
                ref += f"-{index}"
            taken.add(ref)
            item_id = f"{identifier(folder, 'quiz')}-{ref}" if several else ref
            href = f"{folder}/items/{ref}.xml"
            item, used = write_item(question, item_id, quiz.lang, pictures)
            self.files[href] = _xml(item, QTI_NS)
            rid = f"item-{number}-{index}"
            self._resource(rid, ITEM_TYPE, href, used)
            item_ids.append(rid)
            SubElement(
                section, q("assessmentItemRef"), {"identifier": ref, "href": f"items/{ref}.xml"}
            )
        self.files.update(pictures.files)
        test_href = f"{folder}/test.xml"
        self.files[test_href] = _xml(test, QTI_NS)
        resource = self._resource(f"test-{number}", TEST_TYPE, test_href, ())
        for rid in item_ids:
            SubElement(resource, "dependency", {"identifierref": rid})

    def zipped(self) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            # The manifest first, as IMS CP asks; then the rest in a stable order.
            members = {MANIFEST: _xml(self.manifest, CP_NS), **dict(sorted(self.files.items()))}
            for name, data in members.items():
                archive.writestr(zipfile.ZipInfo(name, _DATE), data, zipfile.ZIP_DEFLATED)
        return out.getvalue()


def _test(quiz: DraftQuiz, folder: str) -> tuple[Element, Element]:
    test = Element(
        q("assessmentTest"),
        {
            "identifier": identifier(f"test-{folder}", "test"),
            "title": quiz.title,
            "xsi:schemaLocation": f"{QTI_NS} {QTI_XSD}",
        },
    )
    part = SubElement(
        test,
        q("testPart"),
        {"identifier": "part", "navigationMode": "linear", "submissionMode": "individual"},
    )
    section = SubElement(
        part,
        q("assessmentSection"),
        {"identifier": "section", "title": quiz.title, "visible": "true"},
    )
    if quiz.description:
        rich(SubElement(section, q("rubricBlock"), {"view": "candidate"}), quiz.description)
    return test, section
