"""`quizbot content po export --lang fr` and `quizbot content po import FILE...` (po_workflow)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.content.po_workflow import export_po, import_po, language_problem
from bot.content.problems import display_path
from bot.content.sources import default_content_dir


def configure_po(po: argparse.ArgumentParser) -> None:
    steps = po.add_subparsers(dest="po_command", required=True)
    export = steps.add_parser(
        "export", help="write a PO file per quiz for one language (Poedit, Weblate, Pontoon)"
    )
    export.add_argument("--lang", required=True, help="the language to translate, e.g. fr")
    export.add_argument("--content", type=Path, help="content directory (default: ./content)")
    export.add_argument("--out", type=Path, help="directory for the PO files (default: ./po)")
    imp = steps.add_parser(
        "import", help="write PO files back into the quiz translations, then run the checker"
    )
    imp.add_argument("files", nargs="+", type=Path, help="PO files written by po export")
    imp.add_argument("--content", type=Path, help="content directory (default: ./content)")


def run_po(args: argparse.Namespace) -> int:
    """Exit status 0 when every file was exported, or imported without a checker error."""
    content = args.content or default_content_dir()
    if args.content is None:  # found, not given: say which (./content, or the checkout's)
        print(f"content: {display_path(content.resolve())}")
    if args.po_command == "export":
        if (refused := language_problem(args.lang)) is not None:
            print(f"--lang: {refused}")
            return 2
        for path in export_po(content, args.lang, args.out or Path("po")):
            print(f"wrote {display_path(path)}")
        return 0
    failed = False
    for po in args.files:
        done = import_po(po, content)
        for problem in done.problems:
            print(problem.format(Path(display_path(po))))
        if not done.ok:
            failed = True
            print(f"{display_path(po)}: not imported (fix the errors above, then import again)")
        elif done.yaml is None:
            print(f"{display_path(po)}: nothing changed")
        else:
            print(f"{display_path(po)}: wrote {display_path(done.yaml)}")
    return 1 if failed else 0
