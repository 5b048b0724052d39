"""The `import` and `export` subcommands of `quizbot content` (formats in bot/content/formats)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.config import ConfigError, store_location
from bot.content import importer
from bot.content.exporter import export, languages
from bot.content.loader import check, load_catalog
from bot.content.problems import ContentError, display_path
from bot.content.sources import default_content_dir
from bot.content.uploads import check_upload
from bot.core.models import Level, Quiz
from bot.store.db import StoreError
from bot.store.uploads import uploaded_source

FORMATS_IN = ("gift", "aiken", "csv")
FORMATS_OUT = ("gift", "csv", "aiken")


def configure_import(imp: argparse.ArgumentParser) -> None:
    imp.add_argument("file", type=Path)
    imp.add_argument("--format", choices=FORMATS_IN, required=True)
    imp.add_argument("--lang", default="en", help="language of the file's text (default en)")
    imp.add_argument("--guide", help="guide id from guides.yaml (needed when it has several)")
    imp.add_argument("--level", choices=[lv.value for lv in Level], default="beginner")
    imp.add_argument("--id", dest="quiz_id", help="quiz id (default: from the category or file)")
    imp.add_argument("--out", type=Path, help="content directory (default: ./content)")
    imp.add_argument("--force", action="store_true", help="replace files that exist")


def configure_export(exp: argparse.ArgumentParser) -> None:
    exp.add_argument("quiz")
    exp.add_argument("--format", choices=FORMATS_OUT, required=True)
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
    questions are named by line and left out (`importer.SKIP_RULE`, as for a chat upload)."""
    out_dir = args.out or default_content_dir()
    request = importer.ImportRequest(
        file=args.file,
        fmt=args.format,
        out=out_dir,
        lang=args.lang,
        guide=args.guide,
        level=args.level,
        quiz_id=args.quiz_id,
    )
    try:
        result = importer.read_input(request)
        plan = importer.plan(request, result)
        written = importer.write(plan, force=args.force)
    except importer.ImportFailed as exc:
        print(f"import failed: {exc}", file=sys.stderr)
        return 1
    name = display_path(args.file)
    for problem in plan.problems:
        print(problem.format(name))
    for note in plan.notes:
        print(f"note: {note}")
    for path in written:
        print(f"wrote {display_path(path)}")
    if not written:
        print("nothing to write: no question could be imported")
        return 1
    report = check(out_dir)
    mine = [p for p in report.problems if p.file in written]
    if mine:
        print(f"\nThe checker on the imported files ({len(mine)}):")
        print("\n".join(p.format() for p in mine))
    errors = [p for p in report.errors if p.file in written]
    skipped = sum(p.skipped for p in plan.problems)
    failed = importer.import_failed(bool(written), len(errors))
    print(
        f"\n{'FAILED' if failed else 'OK'}: {skipped} skipped, "
        f"{len(errors)} checker error{'s' * (len(errors) != 1)}"
    )
    return 1 if failed else 0


def run_export(args: argparse.Namespace) -> int:
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
        args.out.write_text(result.text, encoding="utf-8")
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
    checked = check_upload(file_name, source.encode("utf-8"), content)
    if checked.quiz is None:
        print(f"export failed: '{args.quiz}' no longer passes the checks", file=sys.stderr)
    return checked.quiz
