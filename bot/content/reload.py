"""Reloading the catalogue while the bot runs: check the new content first, keep the old on error.

The new catalogue remembers the old versions of the quizzes it replaces (`Catalog.succeeding`),
so an attempt or a group run started before the reload finishes on the content it started with;
new attempts start on the new content.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bot.content.loader import load_catalog
from bot.content.problems import ContentError, Problem, Severity
from bot.core.models import Catalog


@dataclass(frozen=True, slots=True)
class ReloadResult:
    catalog: Catalog  # the catalogue to serve: the new one, or the old one kept
    ok: bool
    errors: list[Problem] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # quizzes new or with a new version
    removed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """Plain text for whoever asked (an owner in chat, an operator at the command line)."""
        if not self.ok:
            count = len(self.errors)
            head = f"Reload refused: {count} content error(s); still serving the old content."
            return "\n".join([head, *(p.format() for p in self.errors)])
        parts = [f"Reloaded: {len(self.catalog.quizzes)} quizzes"]
        parts.append(f"changed: {', '.join(self.changed)}" if self.changed else "no quiz changed")
        if self.removed:
            parts.append(f"removed: {', '.join(self.removed)}")
        return "; ".join(parts) + "."


def reload_catalog(
    path: Path, old: Catalog, *, guide_base_url: str | None = None, cache_dir: Path | None = None
) -> ReloadResult:
    """Load and check `path`; on any error, the old catalogue with the errors (file, line, key)."""
    try:
        new = load_catalog(path, cache_dir=cache_dir, guide_base_url=guide_base_url)
    except ContentError as exc:
        errors = [p for p in exc.problems if p.severity is Severity.ERROR]
        return ReloadResult(old, False, errors)
    changed = [
        quiz.id
        for quiz in new
        if (before := old.quiz(quiz.id)) is None or before.version != quiz.version
    ]
    removed = [quiz_id for quiz_id in old.quizzes if quiz_id not in new.quizzes]
    return ReloadResult(new.succeeding(old), True, changed=changed, removed=removed)
