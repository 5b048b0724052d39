"""`quizbot content import`: a quiz file (GIFT, Aiken, CSV, Moodle XML...) -> quiz source and
translation YAML files, and the pictures it carries -> content/media/.

The parser reports, by line, every question it could not carry; this module turns the drafts
into files (English drafts become sources, other languages translations of a source imported
alongside or already in the content directory), then the checker runs over what was written.
Nothing is overwritten unless asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from bot.content import reimport_match, source_keep
from bot.content.drift import TRUE_FALSE_LABELS
from bot.content.formats import (
    DraftQuestion,
    DraftQuiz,
    FormatProblem,
    NotText,
    ParseResult,
    parse_bytes,
)
from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    FLASHCARD,
    MULTIPLE,
    NUMBER,
    SINGLE,
    TRUE_FALSE,
    Limits,
)
from bot.content.import_media import MediaPlan
from bot.content.problems import N_, Msg, Problems
from bot.content.schema import GuidesFile, QuizSource
from bot.content.sources import parse_file
from bot.content.translation_keep import Kept, kept_from
from bot.content.translation_pictures import place_translation
from bot.content.translation_review import REVIEW_COMMENT, reviewed_again
from bot.content.yaml_writer import source_yaml, translation_yaml
from bot.core.models import SOURCE_LANGUAGE

SKIP_RULE = """A question a format cannot carry (an essay, a matching question, one without a
right answer...) is left out and named by its line; the rest of the file is kept. The file
fails only when no question is left or the checker finds an error in what was kept. The same
rule for `quizbot content import` and for a file uploaded in a chat."""


def import_failed(written: bool, checker_errors: int) -> bool:
    """`SKIP_RULE`: skipped questions alone never fail an import."""
    return not written or checker_errors > 0


class ImportFailed(Exception):
    """The import cannot start (unreadable file, not a content directory...); nothing written."""


@dataclass(slots=True)
class ImportPlan:
    files: dict[Path, str] = field(default_factory=dict)
    media: dict[Path, bytes] = field(default_factory=dict)  # pictures the file carried
    problems: list[FormatProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # The file's lines whose question took its explanation from the source it replaces (the
    # stand-in the caller put there is not reported: `reimport_match`).
    kept_explanations: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class ImportRequest:
    file: Path
    fmt: str
    out: Path
    lang: str = SOURCE_LANGUAGE
    guide: str | None = None
    level: str | None = None  # None: the replaced source's, else beginner
    quiz_id: str | None = None
    max_bytes: int = DEFAULT_LIMITS.max_bytes  # the largest file read (`--max-mb`)


def read_input(request: ImportRequest) -> ParseResult:
    try:
        data = request.file.read_bytes()
    except OSError as exc:
        raise ImportFailed(f"cannot read {request.file}: {exc.strerror or exc}") from None
    name = request.file.name.split(".")[0]
    try:
        limits = Limits(max_bytes=request.max_bytes)
        return parse_bytes(request.fmt, data, name, request.lang, limits)
    except NotText as exc:
        raise ImportFailed(
            f"{request.file} is not UTF-8 text (byte {exc.start}): save it as UTF-8"
        ) from None


def plan(request: ImportRequest, result: ParseResult) -> ImportPlan:
    """The files to write for `result`, and what could not be carried (pure but for reads)."""
    out = ImportPlan(problems=list(result.problems))
    guides = _guides(request.out)
    by_id: dict[str, dict[str, DraftQuiz]] = {}
    for quiz in result.quizzes:
        by_id.setdefault(quiz.id, {})[quiz.lang] = quiz
    if request.quiz_id is not None:
        if len(by_id) > 1:
            raise ImportFailed(
                f"the file holds {len(by_id)} quizzes ({', '.join(by_id)}); --id names only one"
            )
        only = next(iter(by_id.values()), {})
        by_id = {request.quiz_id: {lang: _renamed(q, request.quiz_id) for lang, q in only.items()}}
    for quiz_id, drafts in by_id.items():
        _plan_quiz(request, quiz_id, drafts, guides, out)
    return out


def choose_guide(wanted: str | None, guides: GuidesFile, out: ImportPlan) -> str:
    """The guide the quiz links to: the one asked for (`--guide`, or the uploader's pick), else
    the content's only guide. Never the first of several: a quiz linked to a guide unrelated to
    it misleads every learner (GIFT, Aiken and CSV name no guide, and the schema requires one).
    Asked only when a source is written: a translation joins its source's guide."""
    known = list(guides.guides)
    if wanted is not None and wanted not in guides.guides:
        raise ImportFailed(f"no guide '{wanted}' in guides.yaml (guides: {', '.join(known)})")
    if wanted is not None:
        return wanted
    if len(known) == 1:
        note = f"guide: {known[0]} (the only one in guides.yaml)"
        if note not in out.notes:  # once for a file of several quizzes
            out.notes.append(note)
        return known[0]
    raise ImportFailed(
        "the file names no guide: choose the one this quiz belongs to with --guide "
        f"(guides: {', '.join(known) or 'none'})"
    )


def _plan_quiz(
    request: ImportRequest,
    quiz_id: str,
    drafts: dict[str, DraftQuiz],
    guides: GuidesFile,
    out: ImportPlan,
) -> None:
    folder = request.out / "quizzes"
    origin = request.file.name
    existing = source_keep.replaced_source(folder / f"{quiz_id}.yaml")  # None: none, or broken
    source = drafts.get(SOURCE_LANGUAGE)
    kept_whole: list[str] = []
    found: reimport_match.Matched | None = None
    if source is not None and existing is not None and request.fmt in reimport_match.NO_IDS:
        found = reimport_match.match(existing[1], source, request.fmt)  # ids and explanations
        source = found.quiz
        out.notes.extend(reimport_match.summary(quiz_id, found))
        out.kept_explanations.update(found.kept_explanations)
    if source is not None and existing is not None:  # replacing a source: keep what the file
        source, kept_whole = source_keep.kept_questions(existing[1], source, request.fmt)  # lacks
        if kept_whole:
            out.notes.append(
                Msg(N_("{id}: kept from quizzes/{id}.yaml the questions this format cannot "
                       "carry: {questions}"), id=quiz_id, questions=", ".join(kept_whole))
            )  # fmt: skip
    if source is None:
        source = _existing_source(folder / f"{quiz_id}.yaml", existing)
    if source is None:  # nothing in English anywhere: the imported text stands in for it
        lang, first = next(iter(drafts.items()))
        out.notes.append(
            Msg(N_("{id}: no English source; quizzes/{id}.yaml holds the {lang} text for now. "
                   "Translate it into English, then keep the {lang} text in {id}.{lang}.yaml"),
                id=quiz_id, lang=lang)
        )  # fmt: skip
        source = _as_source(first)
        drafts = {SOURCE_LANGUAGE: source, **{k: v for k, v in drafts.items() if k != lang}}
    translations: dict[str, DraftQuiz] = {}
    file_only: dict[str, Kept] = {}
    pictures = MediaPlan(request.out)  # the source's and the translations' own, written once
    for lang, draft in drafts.items():
        if lang != SOURCE_LANGUAGE:
            not_carried = _not_carried(request.fmt, source)
            file_only[lang] = kept_from(
                folder / f"{quiz_id}.{lang}.yaml",
                _match(draft, source, out, not_carried),
                [q.id for q in source.questions],
                not_carried,
            )
            translations[lang] = file_only[lang].quiz
    if SOURCE_LANGUAGE in drafts:
        complete = [lang for lang, tr in translations.items() if _complete(tr, source)]
        # A language the replaced source declared, whose file this import leaves alone, stays
        # declared while that file still covers the new source (else it is reported partial).
        left = [lang for lang in (existing[0].languages if existing else [])
                if lang != SOURCE_LANGUAGE and lang not in translations]  # fmt: skip
        if existing is not None:
            _review_left(folder, quiz_id, existing[1], source, found, out, translations)
        kept_langs = [
            lang
            for lang in left
            if source_keep.still_complete(folder / f"{quiz_id}.{lang}.yaml", source)
        ]
        partial = (set(translations) - set(complete)) | (set(left) - set(kept_langs))
        complete += kept_langs
        for lang in sorted(partial):
            out.notes.append(
                Msg(N_("{id}.{lang}.yaml is partial (title, description, questions or "
                       "explanations missing): English shows where it lacks a string; complete "
                       "it, then add {lang} to languages in {id}.yaml"), id=quiz_id, lang=lang)
            )  # fmt: skip
        missing = [q for q in source.questions if not q.keyed]
        for question in missing:
            out.problems.append(
                FormatProblem(
                    question.line, Msg(N_("{id}: no answer given"), id=question.id), skipped=True
                )
            )
        if missing:
            kept = tuple(q for q in source.questions if q.keyed)
            source = DraftQuiz(source.id, source.title, source.lang, kept, source.description)
        source = pictures.place_quiz(source)
        if existing is not None:
            source = source_keep.kept_pictures(source, existing[1], kept_whole, request.fmt)
        for question in source.questions:
            if not question.explanation:
                out.notes.append(
                    f"{quiz_id}.{question.id} (line {question.line}): no explanation in the file; "
                    "quizbot shows one after every answer: write it"
                )
        out.files[folder / f"{quiz_id}.yaml"] = source_yaml(
            source,
            # A quiz replaced keeps its guide and level unless the command names them.
            guide=choose_guide(
                request.guide or (existing[0].guide if existing else None), guides, out
            ),
            level=request.level or (existing[0].level.value if existing else "beginner"),
            languages=[SOURCE_LANGUAGE, *sorted(complete)],
            origin=origin,
        )
    for lang, tr in translations.items():
        carried = file_only[lang]
        tr = place_translation(tr, source, carried.own_files, pictures, request.out)
        out.files[folder / f"{quiz_id}.{lang}.yaml"] = translation_yaml(
            tr, origin=origin, same_as_source=carried.same_as_source, reviewed=carried.reviewed
        )
    out.media.update(pictures.files)
    out.problems.extend(pictures.problems)


def _review_left(
    folder: Path,
    quiz_id: str,
    old: DraftQuiz,
    source: DraftQuiz,
    found: reimport_match.Matched | None,
    out: ImportPlan,
    written: dict[str, DraftQuiz],
) -> None:
    """The translations this import leaves alone (`translation_review`): marked for review
    where their question's English changed; without the questions and options `found` removed
    (a format without translations: Aiken)."""
    before = {q.id: q for q in old.questions}
    reworded = [
        q.id
        for q in source.questions
        if (theirs := before.get(q.id)) is not None
        and (q.prompt, q.explanation, [o.text for o in q.options])
        != (theirs.prompt, theirs.explanation, [o.text for o in theirs.options])
    ]
    for path in sorted(folder.glob(f"{quiz_id}.*.yaml")):
        lang = path.name.split(".")[-2]
        if path.name.count(".") != 2 or lang in written or lang == SOURCE_LANGUAGE:
            continue
        text = reviewed_again(path, source, reworded, drop=found is not None)
        if text is None:
            continue
        out.files[path] = text
        if text.count(REVIEW_COMMENT):
            out.notes.append(
                Msg(N_("{file}: the English of {questions} changed: the translation is kept, "
                       "marked reviewed: false and commented where to look"),
                    file=path.name, questions=", ".join(
                        q for q in reworded if f"{REVIEW_COMMENT}\n  {q}:" in text))
            )  # fmt: skip


def _renamed(quiz: DraftQuiz, quiz_id: str) -> DraftQuiz:
    return DraftQuiz(quiz_id, quiz.title, quiz.lang, quiz.questions, quiz.description, quiz.line)


def _not_carried(fmt: str, source: DraftQuiz) -> frozenset[str]:
    """The source's questions that `fmt` cannot hold (CSV and Aiken: select-all, number; Aiken:
    flashcards too): a translation re-imported from it keeps its old text for them."""
    if fmt not in ("csv", "aiken"):
        return frozenset()
    kinds = {MULTIPLE, NUMBER} | ({FLASHCARD} if fmt == "aiken" else set())
    return frozenset(q.id for q in source.questions if q.kind in kinds)


def _as_source(quiz: DraftQuiz) -> DraftQuiz:
    """`quiz` (another language's text) standing in for the English source. A true/false
    question's labels are the format's, not the teacher's words (GIFT's `{T}`, Moodle's
    `true`): they take the source's, True and False, which the checker asks of a source."""
    labels = TRUE_FALSE_LABELS[SOURCE_LANGUAGE]
    questions = tuple(
        replace(
            q, options=tuple(replace(o, text=t) for o, t in zip(q.options, labels, strict=True))
        )
        if q.kind == TRUE_FALSE and len(q.options) == len(labels)
        else q
        for q in quiz.questions
    )
    return DraftQuiz(quiz.id, quiz.title, SOURCE_LANGUAGE, questions, quiz.description)


def _guides(out: Path) -> GuidesFile:
    sink = Problems()
    path = out / "guides.yaml"
    if not path.is_file():
        raise ImportFailed(f"{out} is not a content directory (no guides.yaml): use --out DIR")
    parsed = parse_file(path, GuidesFile, sink)
    if parsed is None:
        raise ImportFailed(f"{path} has errors: run `quizbot content check {out}`")
    return parsed.model


def guide_ids(out: Path) -> list[str]:
    """The guide ids of content directory `out`, in display order."""
    return list(_guides(out).guides)


def _existing_source(path: Path, found: tuple[QuizSource, DraftQuiz] | None) -> DraftQuiz | None:
    """The source a translation joins (`found`, read by `source_keep.replaced_source`)."""
    if found is None and path.is_file():
        raise ImportFailed(f"{path} has errors: run `quizbot content check` first")
    return found[1] if found else None


def _match(
    draft: DraftQuiz, source: DraftQuiz, out: ImportPlan, not_carried: frozenset[str] = frozenset()
) -> DraftQuiz:
    """The translation's questions under the source's ids; mismatches reported, left out.
    Without ids (Aiken), by position: among all the source's questions, or among those the
    format can carry (`not_carried` left out: Aiken's export has no number question)."""
    ids = {q.id for q in source.questions}
    mine = list(draft.questions)
    carried = [q for q in source.questions if q.id not in not_carried]
    by_position = next((s for s in (source.questions, carried) if len(s) == len(mine)), None)
    if mine and not any(q.id in ids for q in mine) and by_position is not None:
        out.notes.append(Msg(N_("{lang}: no question id matches the source: matched by position"),
                             lang=draft.lang))  # fmt: skip
        mine = [_with_id(q, s.id) for q, s in zip(mine, by_position, strict=True)]
    by_id = {q.id: q for q in source.questions}
    kept = []
    for question in mine:
        theirs = by_id.get(question.id)
        if theirs is None:
            out.problems.append(
                FormatProblem(
                    question.line, Msg(N_("{id}: not in the source quiz"), id=question.id), True
                )
            )
        elif len(theirs.options) != len(question.options):
            out.problems.append(
                FormatProblem(
                    question.line,
                    Msg.ngettext(
                        "{id}: {n} option, the source has {source}",
                        "{id}: {n} options, the source has {source}",
                        len(question.options),
                        id=question.id,
                        source=len(theirs.options),
                    ),
                    True,
                )
            )
        elif (question.answers and question.answers != theirs.answers) or (
            question.number is not None
            and (theirs.number is None or replace(question.number, unit="")
                 != replace(theirs.number, unit=""))  # a format without units: the key only
        ):  # fmt: skip
            out.problems.append(
                FormatProblem(
                    question.line,
                    Msg(
                        N_(
                            "{id}: the right answer is not the source's (a translation keeps the "
                            "options in the source's order)"
                        ),
                        id=question.id,
                    ),
                    True,
                )
            )
        elif theirs.kind == TRUE_FALSE and question.kind == SINGLE:
            kept.append(replace(question, kind=TRUE_FALSE))  # CSV, Aiken: two plain options
        else:
            kept.append(question)
    # A title that is only the file name (CSV, Aiken; as exported, the quiz id) is not a
    # translation of the source's.
    title = "" if draft.title in (source.title, source.id) else draft.title
    return DraftQuiz(source.id, title, draft.lang, tuple(kept), draft.description)


def _complete(translation: DraftQuiz, source: DraftQuiz) -> bool:
    return (
        bool(translation.title and translation.description)
        and len(translation.questions) == len(source.questions)
        and all(q.explanation for q in translation.questions)
    )


def _with_id(question: DraftQuestion, qid: str) -> DraftQuestion:
    return replace(question, id=qid)


def refuse_overwrite(plan_: ImportPlan, *, force: bool) -> None:
    """ImportFailed if a planned file exists and `force` is off (nothing is written then)."""
    existing = [path for path in [*plan_.files, *plan_.media] if path.exists()]
    if existing and not force:
        names = ", ".join(str(p) for p in existing)
        raise ImportFailed(f"would overwrite {names}: pass --force to replace")


def write(plan_: ImportPlan, *, force: bool) -> list[Path]:
    """Write the planned files; refuses (writing nothing) if one exists and `force` is off."""
    refuse_overwrite(plan_, force=force)
    for path, text in plan_.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for path, data in plan_.media.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return [*plan_.files, *plan_.media]
