"""The content package's two entry points: check a content directory, or load it as a Catalog."""

from __future__ import annotations

from pathlib import Path

from bot.content.checks import check_sources
from bot.content.problems import ContentError, Problems
from bot.content.report import Report
from bot.content.sources import Content, QuizFiles, read_content
from bot.content.translations import check_translations, source_strings, translated_strings
from bot.content.yaml_nodes import KeyPath
from bot.core.models import SOURCE_LANGUAGE, Catalog, GuidePath, Option, Question, Quiz, Text


def _run(path: Path) -> tuple[Report, Content]:
    sink = Problems()
    content = read_content(path, sink)
    check_sources(content, sink)
    coverage = check_translations(content, sink)
    return Report(path, list(sink), coverage), content


def check(path: Path) -> Report:
    """Every problem in the content directory; never raises for bad content."""
    return _run(path)[0]


def load_catalog(path: Path) -> Catalog:
    """The catalog the bot serves; raises ContentError (with every error) if there is any."""
    report, content = _run(path)
    if report.errors or content.guides is None:
        raise ContentError(report.problems)
    guides = {
        guide_id: GuidePath(
            id=guide_id,
            title=Text(dict(guide.title)),
            url=Text({SOURCE_LANGUAGE: guide.url, **guide.urls}),
        )
        for guide_id, guide in content.guides.model.guides.items()
    }
    quizzes = {files.source.model.id: _quiz(files, guides) for files in content.quizzes}
    return Catalog(guides=guides, quizzes=quizzes)


def _quiz(files: QuizFiles, guides: dict[str, GuidePath]) -> Quiz:
    source = files.source.model
    per_lang = {lang: translated_strings(t.model) for lang, t in files.translations.items()}

    def text(key: KeyPath) -> Text:
        values = {SOURCE_LANGUAGE: english[key]}
        values.update({lang: s[key] for lang, s in sorted(per_lang.items()) if key in s})
        return Text(values)

    english = source_strings(source)
    questions = []
    for qid, question in source.questions.items():
        at = ("questions", qid)
        options = tuple(Option(oid, text((*at, "options", oid))) for oid in question.options)
        questions.append(
            Question(
                id=qid,
                prompt=text((*at, "prompt")),
                options=options,
                correct=list(question.options).index(question.answer[0]),
                explanation=text((*at, "explanation")),
            )
        )
    declared = [lang for lang in source.languages if lang != SOURCE_LANGUAGE]
    return Quiz(
        id=source.id,
        guide=guides[source.guide],
        level=source.level,
        title=text(("title",)),
        description=text(("description",)),
        questions=tuple(questions),
        languages=(SOURCE_LANGUAGE, *dict.fromkeys(declared)),
    )
