"""Logging set up while stderr is one stream keeps working after that stream is closed: a
command run in-process (a test's captured stderr, the sandbox) once left every later log line
failing with "Logging error ... I/O operation on closed file"."""

from __future__ import annotations

import io
import logging
import sys

import pytest

from bot import logs


def test_log_lines_go_to_the_stderr_of_the_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        first = io.StringIO()
        monkeypatch.setattr(sys, "stderr", first)
        logs.setup("INFO", "123:secret")
        logging.getLogger("bot.test").info("first")
        first.close()
        second = io.StringIO()
        monkeypatch.setattr(sys, "stderr", second)
        logging.getLogger("bot.test").info("second with 123:secret")
        assert "second with <token>" in second.getvalue()
        assert "Logging error" not in second.getvalue()
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
