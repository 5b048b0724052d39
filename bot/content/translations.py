"""Each translation file against its English source: keys, code spans, leftovers, coverage.

A string key names one translatable string, as in the YAML: `title`, `description`,
`questions.<id>.prompt`, `questions.<id>.options.<id>`, `questions.<id>.explanation`, and a
number question's `questions.<id>.unit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.content import drift, links, numbers, quality, text_checks, typography
from bot.content.checks import IDENTICAL
from bot.content.problems import N_, Msg, Problems
from bot.content.question_checks import option_warnings, too_long
from bot.content.schema import GlossaryTerm, QuizSource, QuizTranslation
from bot.content.sources import Content, Parsed, QuizFiles
from bot.content.yaml_nodes import KeyPath, key_str
from bot.core import limits
from bot.core.models import SOURCE_LANGUAGE


@dataclass(frozen=True, slots=True)
class QuizCoverage:
    """How much of one quiz one language covers."""

    quiz_id: str
    lang: str
    declared: bool  # the source lists the language as complete
    strings: int
    translated: int
    reviewed: bool = True  # false: `reviewed: false` in the translation file

    @property
    def complete(self) -> bool:
        return self.translated == self.strings


def source_strings(quiz: QuizSource) -> dict[KeyPath, str]:
    out: dict[KeyPath, str] = {("title",): quiz.title, ("description",): quiz.description}
    for qid, question in quiz.questions.items():
        out["questions", qid, "prompt"] = question.prompt
        for oid, text in question.options.items():
            out["questions", qid, "options", oid] = text
        out["questions", qid, "explanation"] = question.explanation
        if question.unit is not None:
            out["questions", qid, "unit"] = question.unit
        for field in ("image", "explanation_image"):
            if (image := getattr(question, field)) is not None:
                out["questions", qid, field, "alt"] = image.alt
    return out


def translated_strings(tr: QuizTranslation) -> dict[KeyPath, str]:
    out: dict[KeyPath, str | None] = {("title",): tr.title, ("description",): tr.description}
    for qid, question in tr.questions.items():
        out["questions", qid, "prompt"] = question.prompt
        for oid, text in question.options.items():
            out["questions", qid, "options", oid] = text
        out["questions", qid, "explanation"] = question.explanation
        out["questions", qid, "unit"] = question.unit
        for field in ("image", "explanation_image"):
            if (image := getattr(question, field)) is not None:
                out["questions", qid, field, "alt"] = image.alt
    return {key: text for key, text in out.items() if text is not None}


def check_translations(content: Content, sink: Problems) -> list[QuizCoverage]:
    terms = content.glossary.model.terms if content.glossary else {}
    coverage: list[QuizCoverage] = []
    for files in content.quizzes:
        source = files.source
        total = len(source_strings(source.model))
        coverage.append(QuizCoverage(source.model.id, SOURCE_LANGUAGE, True, total, total))
        declared = [lang for lang in source.model.languages if lang != SOURCE_LANGUAGE]
        for index, lang in enumerate(source.model.languages):
            missing_file = lang not in files.translations and lang not in files.unreadable
            if lang in declared and missing_file:
                at = ("languages", index)
                sink.error(
                    source.path,
                    source.doc.line(at),
                    key_str(at),
                    Msg(
                        N_("declares {lang} complete, but {file} does not exist"),
                        lang=lang,
                        file=f"{source.path.stem}.{lang}.yaml",
                    ),
                )
        for lang in sorted(set(files.translations) | set(declared)):
            parsed = files.translations.get(lang)
            translated = 0
            if parsed is not None:
                translated = check_translation(
                    files, lang, lang in declared, terms.get(lang, []), sink
                )
            reviewed = parsed is None or parsed.model.reviewed
            coverage.append(
                QuizCoverage(source.model.id, lang, lang in declared, total, translated, reviewed)
            )
    return coverage


def check_translation(
    files: QuizFiles, lang: str, declared: bool, terms: list[GlossaryTerm], sink: Problems
) -> int:
    """Report the file's problems; returns how many source strings it translates."""
    source, parsed = files.source.model, files.translations[lang]
    path, doc = parsed.path, parsed.doc
    english, translated = source_strings(source), translated_strings(parsed.model)

    def report(at: KeyPath, message: str, error: bool = True) -> None:
        (sink.error if error else sink.warn)(path, doc.line(at), key_str(at), message)

    _check_stale(source, parsed, report)
    numbers.check_translated_units(source, parsed.model, report)
    marked: set[str] = set()
    if parsed.model.same_as_source:
        known = {key_str(key) for key in english}
        for index, key in enumerate(parsed.model.same_as_source):
            if key in known:
                marked.add(key)
            else:
                report(("same_as_source", index),
                       Msg(N_("'{key}' is not a key of the English source"), key=key))  # fmt: skip
    missing: list[KeyPath] = []
    for at, text in english.items():
        mine = translated.get(at)
        if mine is None:
            missing.append(at)
            continue
        # Spans cannot be compared while one is unclosed: report only that.
        errors = text_checks.unclosed_backtick(mine) or text_checks.compare_code(text, mine)
        errors += drift.placeholder(mine) or drift.drift(text, mine, lang)
        warnings = text_checks.glossary_hits(mine, terms) + links.link_problems(mine)
        if (typeset := typography.RULES.get(lang)) is not None:
            warnings += typeset(mine)
        if at[-1] == "explanation" and (cut := quality.popup_cut(mine)) is not None:
            warnings.append(cut)
        if not marked or key_str(at) not in marked:
            if text_checks.identical_to_source(text, mine):
                errors.append(Msg(IDENTICAL, mark=Msg(N_("add its key to same_as_source"))))
            else:
                warnings += text_checks.english_leftovers(mine)
        for message in errors:
            report(at, message)
        for message in warnings:
            report(at, message, error=False)
    if declared:
        for at in missing:
            report(
                at,
                Msg(
                    N_("missing {lang} translation ({lang} is declared complete in {file})"),
                    lang=lang,
                    file=files.source.path.name,
                ),
            )
    elif missing:
        keys = ", ".join(key_str(at) for at in missing[:3]) + (", ..." if len(missing) > 3 else "")
        report(
            (),
            Msg(
                N_("{n} of {total} strings not translated, English shown instead: {keys}"),
                n=len(missing),
                total=len(english),
                keys=keys,
            ),
            error=False,
        )
    _check_length(source, parsed.model, report)
    _check_options(source, parsed.model, lang, report)
    return len(english) - len(missing)


def _check_options(source: QuizSource, tr: QuizTranslation, lang: str, report: _Report) -> None:
    """True/false labels in the language's own words; give-aways in this language's options."""
    for qid, question in source.questions.items():
        mine = tr.questions.get(qid)
        if mine is None or not question.options:
            continue
        at: KeyPath = ("questions", qid)
        options = {oid: mine.options.get(oid) or text for oid, text in question.options.items()}
        if question.kind == "true_false":
            for oid, text in mine.options.items():
                for message in drift.true_false_label(lang, oid, text):
                    report((*at, "options", oid), message)
        for where, warning in option_warnings(question, options, lang, at):
            if warning is not None:
                report(where, warning, error=False)


def _check_stale(source: QuizSource, parsed: Parsed[QuizTranslation], report: _Report) -> None:
    for qid, question in parsed.model.questions.items():
        if qid not in source.questions:
            report(
                ("questions", qid),
                Msg(
                    N_("question '{id}' is not in the English source (renamed or removed?)"), id=qid
                ),
            )
            continue
        for oid in question.options:
            if oid not in source.questions[qid].options:
                report(
                    ("questions", qid, "options", oid),
                    Msg(
                        N_("option '{id}' is not in the English source (renamed or removed?)"),
                        id=oid,
                    ),
                )


def _check_length(source: QuizSource, tr: QuizTranslation, report: _Report) -> None:
    for qid, question in source.questions.items():
        mine = tr.questions.get(qid)
        if mine is None:
            continue
        prompt = mine.prompt or question.prompt
        options = [mine.options.get(oid) or text for oid, text in question.options.items()]
        if (size := limits.question_chars(prompt, options)) > limits.MESSAGE_MAX_CHARS:
            report(("questions", qid, "prompt"), too_long(size))


class _Report(Protocol):
    def __call__(self, at: KeyPath, message: str, error: bool = True) -> None: ...
