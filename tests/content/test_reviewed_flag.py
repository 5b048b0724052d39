"""`reviewed: false` in a translation file: the Wolof translations carry it today; the catalogue
knows which languages await a native speaker, the checker's coverage table says so, and a value
that is not a boolean is an error at its line."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.content import check, format_report, load_catalog

CONTENT = Path(__file__).resolve().parents[2] / "content"


def test_the_wolof_translations_are_flagged_not_reviewed() -> None:
    catalog = load_catalog(CONTENT)
    assert catalog.quizzes and all(q.unreviewed == ("wo",) for q in catalog.quizzes.values())
    report = check(CONTENT)
    rows = {row.lang: row for row in report.languages()}
    assert (rows["fr"].unreviewed, rows["wo"].unreviewed) == (0, rows["wo"].quizzes)
    text = format_report(report)
    wo_line = next(line for line in text.splitlines() if line.strip().startswith("wo "))
    assert "not yet reviewed by a native speaker in 6/6" in wo_line
    assert "not yet reviewed" not in text.replace(wo_line, "")


def test_a_reviewed_translation_loses_the_flag_and_a_bad_value_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root)
    wolof = root / "quizzes" / "gradient-accumulation.wo.yaml"
    text = wolof.read_text(encoding="utf-8")
    wolof.write_text(text.replace("reviewed: false", "reviewed: true"), encoding="utf-8")
    catalog = load_catalog(root)
    assert catalog.quizzes["gradient-accumulation"].unreviewed == ()
    assert catalog.quizzes["gradient-checkpointing"].unreviewed == ("wo",)

    wolof.write_text(text.replace("reviewed: false", "reviewed: maybe"), encoding="utf-8")
    (problem,) = check(root).errors
    line = text.splitlines().index("reviewed: false") + 1
    assert (problem.file.name, problem.line, problem.key) == (wolof.name, line, "reviewed")
