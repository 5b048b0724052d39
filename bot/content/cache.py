"""The start-up cache of the checker's verdict on a content directory.

Every check is a pure function of the content files and of the checker's code, so when neither
has changed since a run that found no error, start-up can reuse that run's result instead of
running the checks again. The files are still read, parsed and validated (the catalog is built
from them, and a file that no longer parses is still an error); only `check_sources` and
`check_translations` are skipped.

The key is a SHA-256 over the name and text of every file read (in reading order), the
checker's own source files, CHECKER_VERSION and the Python version (regular expressions follow
its Unicode tables). Only results without errors are stored, as JSON (never pickle), one file per
cache directory; a missing, unreadable or stale cache is simply a miss.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from bot.content.problems import Problem, Severity

# Bump when the checks change in a way the source digest below cannot see.
CHECKER_VERSION = 1
CACHE_FILE = "content-check.json"
_FORMAT = 1
_CHECKER_DIRS = (Path(__file__).resolve().parent, Path(__file__).resolve().parents[1] / "core")

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def checker_digest() -> str:
    """The checker's identity: its version, the Python version, and its code (content + core)."""
    digest = hashlib.sha256(f"{CHECKER_VERSION}\0{sys.version}\0".encode())
    for folder in _CHECKER_DIRS:
        for source in sorted(folder.glob("*.py")):
            digest.update(f"{source.name}\0".encode())
            try:
                digest.update(source.read_bytes())
            except OSError:
                digest.update(b"\0unreadable")
    return digest.hexdigest()


class ContentDigest:
    """Collects every file read from a content directory (`read_content`'s `on_read`)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._digest = hashlib.sha256(checker_digest().encode())

    def __call__(self, path: Path, text: str) -> None:
        name = _relative(path, self.root) or os.fspath(path)
        data = text.encode("utf-8", "surrogatepass")
        self._digest.update(f"\0{name}\0{len(data)}\0".encode())
        self._digest.update(data)

    def hexdigest(self) -> str:
        return self._digest.hexdigest()


def load(cache_dir: Path, key: str, root: Path) -> list[Problem] | None:
    """The problems of the clean run stored under `key`, or None (a miss)."""
    try:
        stored = json.loads((cache_dir / CACHE_FILE).read_text(encoding="utf-8"))
        if stored.get("format") != _FORMAT or stored.get("key") != key:
            return None
        problems = [
            Problem(
                root / item["file"] if item["file"] else root,
                int(item["line"]),
                str(item["key"]),
                str(item["message"]),
                Severity(item["severity"]),
            )
            for item in stored["problems"]
        ]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    if any(p.severity is Severity.ERROR for p in problems):
        return None  # never written so; refuse rather than start on it
    return problems


def store(cache_dir: Path, key: str, root: Path, problems: list[Problem]) -> None:
    """Remember a clean run; never raises (a cache that cannot be written is only slower)."""
    if any(p.severity is Severity.ERROR for p in problems):
        return
    items = []
    for problem in problems:
        name = _relative(problem.file, root)
        if name is None:
            return
        items.append(
            {
                "file": name,
                "line": problem.line,
                "key": problem.key,
                "message": problem.message,
                "severity": problem.severity.value,
            }
        )
    text = json.dumps({"format": _FORMAT, "key": key, "problems": items}, ensure_ascii=False)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".content-check.", dir=cache_dir)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(tmp, cache_dir / CACHE_FILE)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        log.warning("content check cache not written in %s: %s", cache_dir, exc)


def _relative(path: Path, root: Path) -> str | None:
    """`path` relative to `root` in POSIX form ("" for the root itself), None if outside."""
    try:
        return path.relative_to(root).as_posix() if path != root else ""
    except ValueError:
        return None
