"""What the checker reports: one problem per file, line and key, in words a content author reads."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


def N_(message: str) -> str:
    """Mark a checker message for `pybabel extract`; it is translated where it is shown."""
    return message


class Msg(str):
    """A checker message: its English text (what the CLI prints and what tests read), which also
    carries its gettext id and parameters, so a chat can render it in the reader's language.

    A str, so every place that joins, compares or prints messages keeps working; the checker
    never calls gettext (the CLI speaks English, and bot/content stays free of a translator).
    """

    msgid: str
    params: dict[str, object]
    plural: str | None = None  # a count's message: its plural form; `n`, the count
    n: int = 0

    def __new__(cls, msgid: str, /, **params: object) -> Msg:
        self = super().__new__(cls, msgid.format(**params) if params else msgid)
        self.msgid = msgid
        self.params = params
        return self

    @classmethod
    def ngettext(cls, singular: str, plural: str, n: int, /, **params: object) -> Msg:
        """A message about a count, `{n}` in its text: each reader's language picks its form
        (French says "0 option", English "0 options"). Named and shaped as the translator's
        `ngettext`, so `pybabel extract` takes both forms."""
        english = singular if n == 1 else plural
        self = super().__new__(cls, english.format(n=n, **params))
        self.msgid, self.params, self.plural, self.n = singular, params, plural, n
        return self


def option_count(n: int, low: int, high: int) -> Msg:
    """A question with too few or too many options: one wording for the checker and for every
    importer that counts them first."""
    return Msg.ngettext(
        "{n} option: a question needs {low} to {high}",
        "{n} options: a question needs {low} to {high}",
        n,
        low=low,
        high=high,
    )


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
    """A collector the parsing and checking steps append to.

    `stand_ins`: keys a file's validation could not give a value, filled with a stand-in so
    that the checks still run over the rest of the file (every problem in one pass, not one
    round per fix); what the checks then say about a stand-in is not the author's text and is
    dropped (per quiz file stem: a translation's key of the same quiz too).
    """

    def __init__(self, *, stand_ins: bool = False) -> None:
        super().__init__()
        self.salvage = stand_ins  # only a full check asks: a reader that ignores errors must
        # never get a model with stand-in texts
        self.stand_ins: set[tuple[str, str]] = set()  # (quiz file stem, key prefix)

    def error(self, file: Path, line: int, key: str, message: str) -> None:
        self._add(Problem(file, line, key, message, Severity.ERROR))

    def warn(self, file: Path, line: int, key: str, message: str) -> None:
        self._add(Problem(file, line, key, message, Severity.WARNING))

    def _add(self, problem: Problem) -> None:
        if self.stand_ins and self._about_a_stand_in(problem):
            return
        self.append(problem)

    def _about_a_stand_in(self, problem: Problem) -> bool:
        stem = problem.file.name.split(".")[0]
        return any(
            stem == mine and (problem.key == key or problem.key.startswith(key + "."))
            for mine, key in self.stand_ins
        )


class ContentError(Exception):
    """The content has errors; the bot must not start with it."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(problems, key=sort_key)
        super().__init__(str(self))

    def __str__(self) -> str:
        errors = [p for p in self.problems if p.severity is Severity.ERROR]
        head = f"{len(errors)} content error{'s' if len(errors) != 1 else ''}:"
        return "\n".join([head, *(p.format() for p in errors)])
