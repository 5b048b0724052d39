"""Quiz content: YAML files -> the core's Catalog, with a checker that names file, line and key.

The rest of the bot calls `load_catalog` at start-up (it raises ContentError on any error) and
`check` / `format_report` from `quizbot content check`. YAML from anywhere else (uploads) goes
through `parse_yaml`, which bounds size, nesting and alias expansion (`YamlLimits`).
"""

from bot.content.loader import check, load_catalog
from bot.content.problems import ContentError, Problem, Severity
from bot.content.report import Report, format_report
from bot.content.sources import default_content_dir
from bot.content.yaml_nodes import YamlLimits, YamlSyntaxError, parse_yaml

__all__ = [
    "ContentError",
    "Problem",
    "Report",
    "Severity",
    "YamlLimits",
    "YamlSyntaxError",
    "check",
    "default_content_dir",
    "format_report",
    "load_catalog",
    "parse_yaml",
]
