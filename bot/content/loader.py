"""The content package's two entry points: check a content directory, or load it as a Catalog."""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.content import cache
from bot.content.checks import check_sources
from bot.content.guide_urls import guide_url
from bot.content.media import check_media
from bot.content.numbers import number_answer
from bot.content.problems import ContentError, Problem, Problems, Severity
from bot.content.report import Report
from bot.content.schema import ImageSource, ImageTranslation, QuestionSource, QuestionTranslation
from bot.content.sources import Content, OnRead, QuizFiles, read_content
from bot.content.translations import check_translations
from bot.core.kinds import QuestionKind
from bot.core.models import (
    SOURCE_LANGUAGE,
    Catalog,
    GuidePath,
    Image,
    MediaFile,
    Option,
    Question,
    Quiz,
    Text,
)


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Reading 500 quizzes allocates about a million objects and frees few of them: the cyclic
    collector's passes over the growing heap cost a fifth of start-up and find nothing. It is
    switched off for the duration (if it was on) and back on afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _FileHashes(dict[Path, str]):
    """Every file read, path -> SHA-256 of its text: the material of quiz versions."""

    def __init__(self, then: OnRead | None = None) -> None:
        super().__init__()
        self.then = then

    def __call__(self, path: Path, text: str) -> None:
        self[path] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if self.then is not None:
            self.then(path, text)


def _run(
    path: Path, hashes: _FileHashes | None = None
) -> tuple[Report, Content, dict[str, MediaFile]]:
    sink = Problems(stand_ins=True)
    content = read_content(path, sink, on_read=hashes)
    check_sources(content, sink)
    media = check_media(content, sink)
    coverage = check_translations(content, sink)
    return Report(path, list(sink), coverage), content, media


def check(path: Path) -> Report:
    """Every problem in the content directory; never raises for bad content."""
    with _no_gc_pauses():
        return _run(path)[0]


def load_catalog(
    path: Path, cache_dir: Path | None = None, guide_base_url: str | None = None
) -> Catalog:
    """The catalog the bot serves; raises ContentError (with every error) if there is any.

    `guide_base_url` (QUIZBOT_GUIDE_BASE_URL, see `guide_urls`) replaces every guide's URL.

    With `cache_dir`, a clean result of the checks is remembered there (see `cache`), and the
    checks are skipped while neither the content files nor the checker change. The files are
    read, parsed and validated on every start all the same.
    """
    with _no_gc_pauses():
        hashes = _FileHashes()
        problems, content, media = _checked(path, cache_dir, hashes)
        if content.guides is None or any(p.severity is Severity.ERROR for p in problems):
            raise ContentError(problems)
        catalog = _catalog(content, guide_base_url, hashes, media)
        del content  # freed before the collector is back: its next pass has less to walk
    return catalog


def _checked(
    path: Path, cache_dir: Path | None, hashes: _FileHashes
) -> tuple[list[Problem], Content, dict[str, MediaFile]]:
    if cache_dir is None:
        report, content, media = _run(path, hashes)
        return report.problems, content, media
    sink = Problems()
    digest = cache.ContentDigest(path)
    hashes.then = digest
    content = read_content(path, sink, on_read=hashes)
    readable = content.guides is not None and not any(p.severity is Severity.ERROR for p in sink)
    key = digest.hexdigest()
    # Pictures are checked on every load, outside the cache: its key does not cover their bytes.
    pictures = Problems()
    media = check_media(content, pictures)
    if readable and (cached := cache.load(cache_dir, key, path)) is not None:
        return [*cached, *pictures], content, media
    check_sources(content, sink)
    check_translations(content, sink)
    if readable:
        cache.store(cache_dir, key, path, list(sink))
    return [*sink, *pictures], content, media


def _catalog(
    content: Content,
    guide_base_url: str | None = None,
    hashes: dict[Path, str] | None = None,
    media: dict[str, MediaFile] | None = None,
) -> Catalog:
    assert content.guides is not None
    guides = {
        guide_id: GuidePath(
            id=guide_id,
            title=Text(dict(guide.title)),
            url=guide_url(guide_base_url, guide_id, guide.url, guide.urls, guide.title),
        )
        for guide_id, guide in content.guides.model.guides.items()
    }
    quizzes = {
        files.source.model.id: _quiz(files, guides, _version(files, hashes or {}), media or {})
        for files in content.quizzes
    }
    return Catalog(guides=guides, quizzes=quizzes)


def _version(files: QuizFiles, hashes: dict[Path, str]) -> str:
    """A quiz's content version: a hash of its source and translation files (16 hex digits)."""
    parts = [
        files.source.path,
        *(files.translations[lang].path for lang in sorted(files.translations)),
    ]
    digest = hashlib.sha256()
    for path in parts:
        digest.update(f"{path.name}\0{hashes.get(path, '')}\0".encode())
    return digest.hexdigest()[:16]


def _quiz(
    files: QuizFiles,
    guides: dict[str, GuidePath],
    version: str = "",
    media: dict[str, MediaFile] | None = None,
) -> Quiz:
    source = files.source.model
    # Walks the models directly (no key paths): ~50 strings a quiz, 500 quizzes at start-up.
    translations = [(lang, files.translations[lang].model) for lang in sorted(files.translations)]

    def text(english: str, mine: list[tuple[str, str | None]]) -> Text:
        values = {SOURCE_LANGUAGE: english}
        for lang, value in mine:
            if value is not None:
                values[lang] = value
        return Text(values)

    questions = []
    for qid, question in source.questions.items():
        theirs = [
            (lang, q) for lang, tr in translations if (q := tr.questions.get(qid)) is not None
        ]
        options = tuple(
            Option(oid, text(english, [(lang, q.options.get(oid)) for lang, q in theirs]))
            for oid, english in question.options.items()
        )
        unit = Text({})
        if question.unit is not None:
            unit = text(question.unit, [(lang, q.unit) for lang, q in theirs])
        key = number_answer(question) if question.kind == "number" else None
        answer = question.answer
        ids = list(question.options)
        correct_set: frozenset[int] = frozenset()
        if question.kind == "multiple" and isinstance(answer, list):
            correct_set = frozenset(ids.index(a) for a in answer)
        multiple = bool(correct_set)
        questions.append(
            Question(
                id=qid,
                prompt=text(question.prompt, [(lang, q.prompt) for lang, q in theirs]),
                options=options,
                correct=min(correct_set)
                if multiple
                else ids.index(answer[0])
                if isinstance(answer, list) and answer
                else 0,
                correct_set=correct_set,
                kind=QuestionKind(question.kind),
                number=key,
                unit=unit,
                explanation=text(
                    question.explanation, [(lang, q.explanation) for lang, q in theirs]
                ),
                image=_image(question, theirs, "image", media or {}),
                explanation_image=_image(question, theirs, "explanation_image", media or {}),
            )
        )
    declared = [lang for lang in source.languages if lang != SOURCE_LANGUAGE]
    return Quiz(
        id=source.id,
        guide=guides[source.guide],
        level=source.level,
        title=text(source.title, [(lang, tr.title) for lang, tr in translations]),
        description=text(source.description, [(lang, tr.description) for lang, tr in translations]),
        questions=tuple(questions),
        languages=(SOURCE_LANGUAGE, *dict.fromkeys(declared)),
        version=version,
        unreviewed=tuple(lang for lang, tr in translations if not tr.reviewed),
    )


def _image(
    question: QuestionSource,
    theirs: list[tuple[str, QuestionTranslation]],
    field: str,
    media: dict[str, MediaFile],
) -> Image | None:
    """The question's picture: the English file and alt text, each language's own where given."""
    english: ImageSource | None = getattr(question, field)
    if english is None or english.file not in media:
        return None
    files = {SOURCE_LANGUAGE: media[english.file]}
    alt = {SOURCE_LANGUAGE: english.alt}
    for lang, mine in theirs:
        image: ImageTranslation | None = getattr(mine, field)
        if image is None:
            continue
        if image.file is not None and image.file in media:
            files[lang] = media[image.file]
        if image.alt is not None:
            alt[lang] = image.alt
    return Image(files, Text(alt))
