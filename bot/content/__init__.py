"""Quiz content: YAML files -> the core's Catalog, with a checker that names file, line and key.

The rest of the bot calls `load_catalog` at start-up (it raises ContentError on any error) and
`check` / `format_report` from `quizbot content check`.
"""

from bot.content.loader import check, load_catalog
from bot.content.problems import ContentError, Problem, Severity
from bot.content.report import Report, format_report
from bot.content.sources import default_content_dir

__all__ = [
    "ContentError",
    "Problem",
    "Report",
    "Severity",
    "check",
    "default_content_dir",
    "format_report",
    "load_catalog",
]
