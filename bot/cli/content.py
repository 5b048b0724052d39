"""`quizbot content check [PATH]`, `schema [--write | --check]`, `import FILE`, `export QUIZ`,
`po export --lang L` / `po import FILE...` (a translator's PO files), `reload` (ask the running
bot to reload its content), `reports` (what learners reported), `stats` (item analysis: which
questions measure, which look mis-keyed)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.cli.content_po import configure_po, run_po
from bot.cli.content_reload import run_reload
from bot.cli.content_reports import configure_reports, run_reports
from bot.cli.content_stats import configure_stats, run_stats
from bot.cli.content_transfer import configure_export, configure_import, run_export, run_import
from bot.content.loader import check
from bot.content.report import format_report
from bot.content.schema import json_schemas
from bot.content.sources import PACKAGE_ROOT, default_content_dir

SCHEMA_DIR = PACKAGE_ROOT / "schema"


def main(argv: list[str] | None = None) -> int:
    """Exit status: 0 when clean (warnings allowed), 1 on errors or stale schemas."""
    parser = argparse.ArgumentParser(prog="quizbot content", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check_cmd = commands.add_parser("check", help="validate guides, quizzes and translations")
    check_cmd.add_argument(
        "path", nargs="?", type=Path, help="content directory (default: ./content)"
    )
    schema_cmd = commands.add_parser("schema", help="print the JSON Schemas of the format")
    mode = schema_cmd.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write them into --dir")
    mode.add_argument("--check", action="store_true", help="fail if --dir is out of date")
    schema_cmd.add_argument("--dir", type=Path, default=SCHEMA_DIR, help="default: schema/")
    configure_import(
        commands.add_parser("import", help="convert a GIFT, Aiken or CSV file into quiz YAML")
    )
    configure_export(commands.add_parser("export", help="write a quiz as GIFT, CSV or Aiken"))
    reload_cmd = commands.add_parser("reload", help="make the running bot reload its content")
    where = reload_cmd.add_mutually_exclusive_group()
    where.add_argument(
        "--db",
        help="the bot's database, a SQLite file or the workers' postgresql:// URL "
        "(default: env QUIZBOT_DB)",
    )
    where.add_argument("--socket", type=Path, help="the bot's control socket (<db>.sock)")
    configure_reports(
        commands.add_parser("reports", help="list learners' reports of problems with questions")
    )
    configure_po(commands.add_parser("po", help="a translator's PO files: export, import"))
    configure_stats(
        commands.add_parser("stats", help="item analysis of the questions, over every answer")
    )
    args = parser.parse_args(argv)
    if args.command == "import":
        return run_import(args)
    if args.command == "export":
        return run_export(args)
    if args.command == "reload":
        return run_reload(args.socket, args.db)
    if args.command == "reports":
        return run_reports(args)
    if args.command == "po":
        return run_po(args)
    if args.command == "stats":
        return run_stats(args)

    if args.command == "check":
        report = check(args.path or default_content_dir())
        print(format_report(report))
        return 1 if report.errors else 0
    return _schema(args.dir, write=args.write, verify=args.check)


def _schema(directory: Path, *, write: bool, verify: bool) -> int:
    schemas = json_schemas()
    if write:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in schemas.items():
            (directory / name).write_text(text, encoding="utf-8")
            print(f"wrote {directory / name}")
        return 0
    if verify:
        stale = [n for n, t in schemas.items() if _read(directory / n) != t]
        for name in stale:
            print(f"{directory / name} is out of date: run `quizbot content schema --write`")
        return 1 if stale else 0
    for name, text in schemas.items():
        sys.stdout.write(f"# {name}\n{text}")
    return 0


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None
