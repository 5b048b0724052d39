"""The checker's result and its text form: problems by file and line, then a coverage table."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bot.content.problems import Problem, Severity, display_path, sort_key
from bot.content.translations import QuizCoverage
from bot.core.models import SOURCE_LANGUAGE


@dataclass(frozen=True, slots=True)
class LanguageCoverage:
    """One language over the whole catalog: what a learner choosing it gets."""

    lang: str
    declared: bool  # at least one quiz declares it complete
    quizzes: int
    quizzes_complete: int
    strings: int
    translated: int
    unreviewed: int = 0  # quizzes whose translation awaits a native speaker's review

    @property
    def complete(self) -> bool:
        return self.translated == self.strings

    @property
    def status(self) -> str:
        if self.lang == SOURCE_LANGUAGE:
            return "source"
        status = "complete"
        if not self.complete:
            missing = self.strings - self.translated
            status = f"falls back to English for {missing} string{'s' if missing != 1 else ''}"
        if self.unreviewed:
            status += (
                f"; not yet reviewed by a native speaker in {self.unreviewed}/{self.quizzes} "
                "(the bot says so in the quiz intro)"
            )
        return status


@dataclass(frozen=True, slots=True)
class Report:
    root: Path
    problems: list[Problem] = field(default_factory=list)
    coverage: list[QuizCoverage] = field(default_factory=list)  # one per quiz and language

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.WARNING]

    @property
    def quiz_ids(self) -> list[str]:
        return [c.quiz_id for c in self.coverage if c.lang == SOURCE_LANGUAGE]

    def languages(self) -> list[LanguageCoverage]:
        """Per language, every quiz counted: a quiz with no file in a language falls back."""
        quizzes = self.quiz_ids
        total = sum(c.strings for c in self.coverage if c.lang == SOURCE_LANGUAGE)
        langs = sorted({c.lang for c in self.coverage}, key=lambda x: (x != SOURCE_LANGUAGE, x))
        rows: list[LanguageCoverage] = []
        for lang in langs:
            mine = [c for c in self.coverage if c.lang == lang]
            rows.append(
                LanguageCoverage(
                    lang=lang,
                    declared=any(c.declared for c in mine),
                    quizzes=len(quizzes),
                    quizzes_complete=sum(c.complete for c in mine),
                    strings=total,
                    translated=sum(c.translated for c in mine),
                    unreviewed=sum(not c.reviewed for c in mine),
                )
            )
        return rows


def format_report(report: Report) -> str:
    lines: list[str] = [f"Checked {display_path(report.root)}"]
    for title, problems in (("Errors", report.errors), ("Warnings", report.warnings)):
        if problems:
            lines += ["", f"{title} ({len(problems)}):"]
            lines += [p.format() for p in sorted(problems, key=sort_key)]
    lines += ["", *coverage_table(report)]
    errors, warnings = len(report.errors), len(report.warnings)
    verdict = "FAILED" if errors else "OK"
    lines += [
        "",
        f"{verdict}: {errors} error{'s' * (errors != 1)}, "
        f"{warnings} warning{'s' * (warnings != 1)}",
    ]
    return "\n".join(lines)


def coverage_table(report: Report) -> list[str]:
    rows = report.languages()
    if not rows:
        return ["Coverage: no quizzes"]
    header = ("language", "declared", "quizzes", "strings", "status")
    table = [header] + [
        (
            row.lang,
            "yes" if row.declared else "no",
            f"{row.quizzes_complete}/{row.quizzes}",
            f"{row.translated}/{row.strings}",
            row.status,
        )
        for row in rows
    ]
    widths = [max(len(r[i]) for r in table) for i in range(len(header) - 1)]
    count = len(report.quiz_ids)
    out = [f"Coverage ({count} quiz{'zes' * (count != 1)}):"]
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        out.append("  " + "  ".join([*cells, row[-1]]))
    return out
