"""An uploaded quiz file (GIFT, Aiken, CSV, Moodle XML, QTI, Anki) -> content files, by the
same path as `quizbot content import`: the format's parser under the upload's limits, then the
importer's plan.

Pictures stay out: an uploaded quiz lives in the database as its file, checked again at every
start in a throw-away directory, and has no media folder of its own (an uploaded YAML cannot
name a picture either). Each question that had one says so, and keeps its text.

A question the parser had to leave out is left out, named by its line in the summary, and the
rest is kept: the same rule as the command line (`importer.SKIP_RULE`). What it merely noted is
a warning too; only a file with no question left, or with a checker error, is refused.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from bot.content.formats import DraftQuiz, FormatProblem, Limits, NotText, parse_bytes
from bot.content.formats.draft import OPTION_IDS
from bot.content.import_media import drop_pictures
from bot.content.importer import ImportFailed, ImportRequest, guide_ids, plan
from bot.content.problems import N_, Msg
from bot.content.stand_in import stand_in_explanations
from bot.content.upload_limits import UploadLimits, UploadProblem

_SPACES = re.compile(r"[\s_]+")
MAX_FILE_TITLE = 60


def file_title(file_name: str) -> str:
    """The title (and so the id) of a quiz whose format has none (Aiken, a CSV without the
    title column, GIFT without `$CATEGORY`): the file's name as written, without extensions
    ("Week 3_gradients.aiken.txt" -> "Week 3 gradients", id week-3-gradients)."""
    stem = file_name.replace("\\", "/").rsplit("/", 1)[-1].split(".")[0]
    stem = "".join(ch if ch.isprintable() else " " for ch in stem)
    return _SPACES.sub(" ", stem).strip()[:MAX_FILE_TITLE].strip() or "quiz"


def write_converted(
    root: Path, fmt: str, file_name: str, data: bytes, limits: UploadLimits
) -> tuple[list[UploadProblem], dict[str, int]]:
    """Write the converted quiz under `root/quizzes`; every problem the conversion found, and
    `source_lines` of the drafts (the checker's lines are of the YAML written here)."""
    bounds = Limits(
        max_bytes=limits.max_bytes,
        max_questions=limits.max_questions,
        max_options=limits.max_options,
        max_text_chars=max(limits.max_prompt_chars, limits.max_explanation_chars),
    )
    try:
        result = parse_bytes(fmt, data, file_title(file_name), "en", bounds)
    except NotText as exc:  # check_upload decodes text formats first: not expected here
        return [UploadProblem(data[: exc.start].count(b"\n") + 1, "not_utf8")], {}
    no_pictures = Msg(N_("pictures are not kept in an uploaded quiz: the question is kept "
                         "without its picture"))  # fmt: skip
    for index, quiz in enumerate(result.quizzes):
        result.quizzes[index], dropped = drop_pictures(quiz, no_pictures)
        result.problems.extend(dropped)
    problems = [_from_format(p) for p in result.problems]
    if not result.quizzes:  # nothing left: what was left out is why the file is refused
        left_out = [replace(p, warning=False) if p.code == "skipped" else p for p in problems]
        return [*left_out, UploadProblem(0, "no_questions")], {}
    result.quizzes = [_explained(quiz, problems) for quiz in result.quizzes]
    try:
        # The schema needs a guide: the first stands in for the check, and `check_upload`
        # takes it off the quiz (the file named none; an admin may pick one from buttons).
        guide = next(iter(guide_ids(root)), None)
        planned = plan(ImportRequest(Path(file_name), fmt, root, guide=guide), result)
    except ImportFailed as exc:
        return [*problems, UploadProblem(0, "format", str(exc))], {}
    seen = {(p.line, p.detail) for p in problems}
    for extra in planned.problems[len(result.problems) :]:
        if (extra.line, extra.message) not in seen:
            problems.append(_from_format(extra))
    for note in planned.notes:
        if isinstance(note, Msg) and note.msgid.startswith(_PARTIAL):
            problems.append(_partial(str(note.params.get("lang", ""))))
        elif not note.startswith("guide:") and "no explanation" not in note:
            problems.append(UploadProblem(0, "format", note, warning=True))
    for path, content in planned.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return problems, source_lines(result.quizzes)


# The importer's note on a partial translation names the YAML files it wrote; an uploader sent
# one file (a CSV, say) and has no YAML to edit: they get advice about their own file.
_PARTIAL = "{id}.{lang}.yaml is partial"


def _partial(lang: str) -> UploadProblem:
    advice = Msg(
        N_(
            "incomplete, so the quiz is not offered in it: fill in its title, description, "
            "questions and explanations in the file, then send it again"
        )
    )
    return UploadProblem(0, "format", advice, warning=True, lang=lang)


def _from_format(problem: FormatProblem) -> UploadProblem:
    """A format's problem as a warning: a skipped question is left out (`importer.SKIP_RULE`)."""
    return UploadProblem(
        problem.line, "skipped" if problem.skipped else "format", problem.message, warning=True
    )


def source_lines(quizzes: list[DraftQuiz]) -> dict[str, int]:
    """Checker key (`questions.<id>`, `questions.<id>.options.<letter>`) -> the uploaded file's
    line where that question or option starts, so problems point at the uploader's own file.
    Each language's rows are also under `<lang>:<key>`: a CSV's French row is where a problem
    of the French translation is."""
    lines: dict[str, int] = {}
    for quiz in quizzes:
        for question in quiz.questions:
            if question.line <= 0:
                continue
            at = f"questions.{question.id}"
            keys = {at: question.line}
            for option_id, option in zip(OPTION_IDS, question.options, strict=False):
                keys[f"{at}.options.{option_id}"] = option.line or question.line
            for key, line in keys.items():
                lines.setdefault(key, line)
                lines.setdefault(f"{quiz.lang}:{key}", line)
    return lines


def _explained(quiz: DraftQuiz, problems: list[UploadProblem]) -> DraftQuiz:
    """Aiken (and many GIFT files) carry no explanations, which quizbot shows after every
    answer: the right option stands in for one (`stand_in`), and the summary says so."""
    (done,), stood_in = stand_in_explanations([quiz])
    problems.extend(UploadProblem(q.line, "no_explanation", warning=True) for q in stood_in)
    return done
