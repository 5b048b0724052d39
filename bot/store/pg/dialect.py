"""The store's SQL, written once for SQLite, run on PostgreSQL.

The queries in bot/store use a small common dialect; what differs is bridged here, so that no
query is written twice:

* `?` placeholders become `$1, $2, …` (outside string literals, quoted names and comments), and
  SQLite's numbered `?NNN` becomes `$NNN` (a bare `?` after it takes the largest number so far
  plus one, as in SQLite);
* `INSERT OR IGNORE INTO …` becomes `INSERT INTO … ON CONFLICT DO NOTHING`;
* SQLite's two-argument `max(a, b)` / `min(a, b)` and `sum()` over a comparison exist in
  PostgreSQL as functions of the same names (bot/store/pg/work_migrations/002_sqlite_dialect.sql).

Anything else SQLite-only fails loudly on PostgreSQL in the store's tests, which run on both.
"""

from __future__ import annotations

import functools
import re

_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_DIGITS = re.compile(r"[0-9]+")


def _code_spans(sql: str) -> list[tuple[int, int]]:
    """(start, end) of the parts of `sql` that are code: not literals, quoted names, comments."""
    spans, start, i, n = [], 0, 0, len(sql)
    while i < n:
        c = sql[i]
        if c in "'\"":
            spans.append((start, i))
            j = i + 1
            while j < n:
                if sql[j] == c:
                    if j + 1 < n and sql[j + 1] == c:  # '' or "" inside: an escaped quote
                        j += 2
                        continue
                    break
                j += 1
            i = start = j + 1
        elif sql.startswith("--", i):
            spans.append((start, i))
            j = sql.find("\n", i)
            i = start = n if j < 0 else j
        elif c == "$" and i + 1 < n and sql[i + 1] == "$":
            raise ValueError("dollar-quoted strings are not part of the common dialect")
        else:
            i += 1
    spans.append((start, n))
    return [(a, b) for a, b in spans if b > a]


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """`sql` (the store's dialect) as PostgreSQL runs it. Cached: the store's queries are few."""
    ignore = _OR_IGNORE.match(sql)
    if ignore:
        sql = "INSERT INTO" + sql[ignore.end() :]
    text, returning_at = _numbered(sql)
    if ignore:
        if returning_at is None:
            text = text.rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
        else:
            text = f"{text[:returning_at]}ON CONFLICT DO NOTHING {text[returning_at:]}"
    return text


def _numbered(sql: str) -> tuple[str, int | None]:
    """`sql` with `$n` for each `?` in code, and where its last RETURNING keyword starts."""
    out: list[str] = []
    length = number = last = 0
    returning_at: int | None = None
    for start, end in _code_spans(sql):
        out.append(sql[last:start])
        length += start - last
        pieces = sql[start:end].split("?")
        text = pieces[0]
        for piece in pieces[1:]:
            digits = _DIGITS.match(piece)
            if digits:  # ?NNN: that parameter, again or out of order
                number = max(number, int(digits.group()))
                text += f"${piece}"
            else:
                number += 1
                text += f"${number}{piece}"
        for match in _WORD.finditer(text):
            if match.group().upper() == "RETURNING":
                returning_at = length + match.start()
        out.append(text)
        length += len(text)
        last = end
    out.append(sql[last:])
    return "".join(out), returning_at
