"""The `import` and `export` subcommands of `quizbot content` (formats in bot/content/formats)."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from bot.config import ConfigError, store_location
from bot.content import importer
from bot.content.exporter import binary_format, export, languages
from bot.content.formats import formats_in, formats_out
from bot.content.loader import check, load_catalog
from bot.content.problems import ContentError, Severity, display_path
from bot.content.sources import default_content_dir
from bot.content.stand_in import stand_in_explanations
from bot.content.upload_formats import source_lines
from bot.content.uploads import check_upload, source_bytes
from bot.core.models import SOURCE_LANGUAGE, Level, Quiz
from bot.store.db import StoreError
from bot.store.uploads import uploaded_source


def configure_import(imp: argparse.ArgumentParser) -> None:
    imp.add_argument("file", type=Path)
    imp.add_argument("--format", choices=formats_in(), required=True)
    imp.add_argument("--lang", default="en", help="language of the file's text (default en)")
    imp.add_argument("--guide", help="guide id from guides.yaml (needed when it has several)")
    imp.add_argument(
        "--level",
        choices=[lv.value for lv in Level],
        help="default: the level of the quiz it replaces, else beginner",
    )
    imp.add_argument("--id", dest="quiz_id", help="quiz id (default: from the category or file)")
    imp.add_argument("--out", type=Path, help="content directory (default: ./content)")
    imp.add_argument("--force", action="store_true", help="replace files that exist")
    imp.add_argument(
        "--max-mb",
        type=float,
        default=1.0,
        metavar="MB",
        help="the largest file read, in MB (default 1; an export with pictures may need more)",
    )


def configure_export(exp: argparse.ArgumentParser) -> None:
    exp.add_argument("quiz")
    exp.add_argument("--format", choices=formats_out(), required=True)
    exp.add_argument("--lang", help="one language (default: English; CSV: every language)")
    exp.add_argument("--content", type=Path, help="content directory (default: ./content)")
    exp.add_argument("--out", type=Path, help="file to write (default: standard output)")
    exp.add_argument(
        "--group", type=int, help="a study group's uploaded quiz: the group's chat id (with --db)"
    )
    exp.add_argument(
        "--db", metavar="PATH|URL", help="the bot's database (default: env QUIZBOT_DB)"
    )


def run_import(args: argparse.Namespace) -> int:
    """Exit status 0 when something was written and the checker finds no error in it; skipped
    questions are named by line and left out (`importer.SKIP_RULE`, as for a chat upload).

    The new files are checked in a copy of the content directory first and written only if
    they pass: a failing file never reaches the live content (the bot refuses to start on a
    content error), and the problems point at the input file's lines."""
    out_dir = args.out or default_content_dir()
    request = importer.ImportRequest(
        file=args.file,
        fmt=args.format,
        out=out_dir,
        lang=args.lang,
        guide=args.guide,
        level=args.level,
        quiz_id=args.quiz_id,
        max_bytes=_max_bytes(args.max_mb),
    )
    try:
        result = importer.read_input(request)
        source_only = frozenset({SOURCE_LANGUAGE})
        result.quizzes, stood_in = stand_in_explanations(result.quizzes, source_only)
        plan = importer.plan(request, result)
        importer.refuse_overwrite(plan, force=args.force)
    except importer.ImportFailed as exc:
        print(f"import failed: {exc}", file=sys.stderr)
        return 1
    name = display_path(args.file)
    for problem in plan.problems:
        print(problem.format(name))
    if _size(args.file) > request.max_bytes:
        print(f"{name}: larger than --max-mb {args.max_mb:g}: give a larger --max-mb to read it")
    for note in plan.notes:
        print(f"note: {note}")
    for q in stood_in:
        if q.line in plan.kept_explanations:
            continue  # the question kept the explanation of the quiz it replaces
        print(f"note: {name}:{q.line}: {q.question_id}: no explanation in the file: the right "
              "option stands in for it (✅ ...); write a real one")  # fmt: skip
    skipped = sum(p.skipped for p in plan.problems)
    if not plan.files:
        print("nothing to write: no question could be imported")
        return 1
    errors, shown = _staged_check(out_dir, plan, name, source_lines(result.quizzes))
    if shown:
        print(f"\nThe checker on the imported files ({len(shown)}):")
        print("\n".join(shown))
    if importer.import_failed(True, errors):
        where = display_path(out_dir / "quizzes")
        print(
            f"\nFAILED: {skipped} skipped, {errors} checker error{'s' * (errors != 1)}; "
            f"nothing was written to {where}: fix {name} and import it again"
        )
        return 1
    for path in importer.write(plan, force=True):
        print(f"wrote {display_path(path)}")
    print(f"\nOK: {skipped} skipped, 0 checker errors")
    return 0


def _staged_check(
    out_dir: Path, plan: importer.ImportPlan, name: str, lines: dict[str, int]
) -> tuple[int, list[str]]:
    """The checker's errors and messages on the planned files, written into a copy of the
    content directory (a translation is checked against its source there). A problem of a
    question or option is named at the input file's line; others at the file to be written."""
    with tempfile.TemporaryDirectory(prefix="quizbot-import-") as tmp:
        staged = Path(tmp) / "content"
        shutil.copytree(out_dir, staged, symlinks=True)
        real = {}
        for path, text in plan.files.items():
            copy = staged / path.relative_to(out_dir)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(text, encoding="utf-8")
            real[copy.resolve()] = path
        for path, data in plan.media.items():  # the pictures the quiz files name
            copy = staged / path.relative_to(out_dir)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(data)
        report = check(staged)
        # A quiz's other files count too: a translation this import leaves alone may no longer
        # fit the new source, and the bot would refuse to start on its error.
        quizzes = {path.name.split(".")[0] for path in real.values() if path.suffix == ".yaml"}
        others = {
            p.file.resolve(): out_dir / "quizzes" / p.file.name
            for p in report.errors
            if p.file.parent.name == "quizzes"
            and p.file.name.split(".")[0] in quizzes
            and p.file.resolve() not in real
        }
        mine = [
            p
            for p in report.problems
            if p.file.resolve() in real
            or (p.severity is Severity.ERROR and p.file.resolve() in others)
        ]
        errors = sum(
            1 for p in report.errors if p.file.resolve() in real or p.file.resolve() in others
        )
    shown = []
    for problem in mine:
        for temp in (str(staged.resolve()), str(staged)):  # a message naming another file
            problem = replace(problem, message=problem.message.replace(temp, str(out_dir)))
        if problem.file.resolve() in others:  # not from the input file: named where it is
            shown.append(replace(problem, file=others[problem.file.resolve()]).format())
            continue
        lang = problem.file.name.split(".")[-2] if problem.file.name.count(".") == 2 else ""
        line = _input_line(problem.key, lang, lines)
        if line:
            shown.append(f"{name}:{line}: {problem.key}: {problem.message}")
        else:
            shown.append(replace(problem, file=real[problem.file.resolve()]).format())
    return errors, shown


def _input_line(key: str, lang: str, lines: dict[str, int]) -> int:
    """The input file's line of the question or option `key` is under (0: none)."""
    while key:
        for at in (f"{lang}:{key}", key) if lang else (key,):
            if at in lines:
                return lines[at]
        key = key.rpartition(".")[0]
    return 0


def run_export(args: argparse.Namespace) -> int:
    if args.out is None and binary_format(args.format):
        print(
            f"export failed: {args.format} files are not text: name the file with --out FILE",
            file=sys.stderr,
        )
        return 2
    content = args.content or default_content_dir()
    try:
        catalog = load_catalog(content)
    except ContentError as exc:
        print(f"export failed: the content has errors\n{exc}", file=sys.stderr)
        return 1
    quiz = catalog.quiz(args.quiz) if args.group is None else _uploaded(args, content)
    if quiz is None and args.group is not None:
        return 1
    if quiz is None:
        known = ", ".join(catalog.quizzes) or "none"
        print(f"export failed: no quiz '{args.quiz}' (quizzes: {known})", file=sys.stderr)
        return 1
    if args.lang:
        langs = [args.lang]
    elif args.format == "csv":
        langs = languages(quiz)
    else:
        langs = ["en"]
    result = export(quiz, args.format, langs)
    for lang, count in result.fallbacks.items():
        print(f"note: {count} strings have no {lang} text: English written", file=sys.stderr)
    if result.dropped:
        print(f"note: Aiken has no explanations: {result.dropped} left out", file=sys.stderr)
    if result.skipped:
        print(
            f"note: number and select-all questions need GIFT (this format has one right "
            "option per question): "
            f"{result.skipped} question{'s' * (result.skipped != 1)} left out",
            file=sys.stderr,
        )
    for question_id in result.flashcards:
        if args.format == "moodle":
            print(
                f"note: Moodle has no flashcards: question {question_id} written as a "
                "description (its text the front, its general feedback the back), tagged "
                "quizbot-flashcard so that quizbot reads it back as a flashcard",
                file=sys.stderr,
            )
            continue
        print(
            f"note: {args.format} has no flashcards: question {question_id} left out "
            "(YAML and the CSV layout carry them)",
            file=sys.stderr,
        )
    if result.units:
        print(f"note: GIFT has no units: {result.units} left out", file=sys.stderr)
    if args.out is None:
        sys.stdout.write(result.text)
    else:
        args.out.write_bytes(result.data)
        print(f"wrote {display_path(args.out)}", file=sys.stderr)
    return 0


def _uploaded(args: argparse.Namespace, content: Path) -> Quiz | None:
    """A group's uploaded quiz, read from the bot's database and checked as on upload."""
    try:
        found = uploaded_source(store_location(args.db), args.group, args.quiz)
    except (ConfigError, StoreError) as exc:
        print(f"export failed: {exc}", file=sys.stderr)
        return None
    if found is None:
        print(f"export failed: group {args.group} has no quiz '{args.quiz}'", file=sys.stderr)
        return None
    file_name, source = found
    checked = check_upload(file_name, source_bytes(source), content)
    if checked.quiz is None:
        print(f"export failed: '{args.quiz}' no longer passes the checks", file=sys.stderr)
    return checked.quiz


def _max_bytes(megabytes: float) -> int:
    """`--max-mb` in bytes; a bound, so at least 1 KB and at most 200 MB (read whole)."""
    return int(min(max(megabytes, 0.001), 200.0) * 1_000_000)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
