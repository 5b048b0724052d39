"""Where the store lives, from one setting: a SQLite path or URL, or a PostgreSQL URL.

`QUIZBOT_DB=data/quizbot.sqlite3` and `sqlite:///data/quizbot.sqlite3` (three slashes: relative,
four: absolute, as SQLAlchemy spells it) are SQLite; `postgresql://…` (or `postgres://…`) is
PostgreSQL, passed to asyncpg as it is (`?host=/run/postgresql` for a unix socket).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit


@dataclass(frozen=True, slots=True)
class Location:
    path: Path | None = None  # SQLite
    dsn: str | None = None  # PostgreSQL

    @property
    def is_postgres(self) -> bool:
        return self.dsn is not None

    def __str__(self) -> str:
        """For messages: the path, or the URL without its password."""
        if self.dsn is not None:
            hidden = re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", self.dsn)
            # asyncpg also takes the password as a query parameter.
            return re.sub(r"([?&]password=)[^&]*", r"\1***", hidden)
        return str(self.path)


def parse_location(value: str) -> Location:
    text = value.strip()
    if text.startswith(("postgresql://", "postgres://")):
        _check_port(text)
        return Location(dsn=text)
    if text.startswith("sqlite:///"):
        return Location(path=Path(text.removeprefix("sqlite:///")))
    if "://" in text:
        raise ValueError(f"unknown database URL scheme in {text.split('://')[0]!r}")
    return Location(path=Path(text))


def _check_port(url: str) -> None:
    """A port that is no number (or none from 1 to 65535) stops start-up here, with the setting
    named by the caller, not as asyncpg's "invalid literal for int()" once the bot is starting."""
    try:
        port = urlsplit(url).port
    except ValueError:
        raise ValueError("the port after the host must be a number from 1 to 65535") from None
    if port == 0:
        raise ValueError("the port after the host must be a number from 1 to 65535")
