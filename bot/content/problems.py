"""What the checker reports: one problem per file, line and key, in words a content author reads."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    ERROR = "error"  # the bot refuses to start
    WARNING = "warning"  # the bot starts; something falls back or looks suspicious


@dataclass(frozen=True, slots=True)
class Problem:
    file: Path
    line: int
    key: str  # dotted path of the YAML key, e.g. questions.why-activations.options.b
    message: str
    severity: Severity = Severity.ERROR

    def format(self) -> str:
        """`file:line: key: message`, the shape editors and terminals turn into links."""
        where = f"{display_path(self.file)}:{self.line}:"
        return f"{where} {self.key}: {self.message}" if self.key else f"{where} {self.message}"


def display_path(path: Path) -> str:
    """The path relative to the current directory when it is below it, so messages stay short."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return os.fspath(path)


def sort_key(problem: Problem) -> tuple[str, int, str]:
    return (os.fspath(problem.file), problem.line, problem.key)


class Problems(list[Problem]):
    """A collector the parsing and checking steps append to."""

    def error(self, file: Path, line: int, key: str, message: str) -> None:
        self.append(Problem(file, line, key, message, Severity.ERROR))

    def warn(self, file: Path, line: int, key: str, message: str) -> None:
        self.append(Problem(file, line, key, message, Severity.WARNING))


class ContentError(Exception):
    """The content has errors; the bot must not start with it."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(problems, key=sort_key)
        super().__init__(str(self))

    def __str__(self) -> str:
        errors = [p for p in self.problems if p.severity is Severity.ERROR]
        head = f"{len(errors)} content error{'s' if len(errors) != 1 else ''}:"
        return "\n".join([head, *(p.format() for p in errors)])
