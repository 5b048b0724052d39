"""`quizbot content ... | head`: a reader that stops early is normal shell use, not a crash.

Python raises BrokenPipeError on the next write once `head` has gone; before, every content command
ended such a pipe with a traceback on stderr.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _closed_reader(args: list[str]) -> tuple[str, int]:
    """Run `python -m bot ARGS` with its output read by nobody (as `... | true`); (stderr, code)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the command writes: its first write finds the reader gone
    err = proc.stderr.read()
    return err, proc.wait(timeout=60)


def test_an_export_whose_reader_has_gone_ends_without_a_traceback() -> None:
    err, code = _closed_reader(
        ["content", "export", "gradient-checkpointing", "--format", "gift", "--content", "content"]
    )
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert code == 141  # what a shell reports for a command ended by SIGPIPE (128 + 13)


def test_a_check_whose_reader_has_gone_ends_without_a_traceback() -> None:
    err, code = _closed_reader(["content", "check", "content"])
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert code == 141
