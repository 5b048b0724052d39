"""Logging set-up. The token must never reach a log line, whatever the level."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

NOISY = ("httpx", "httpcore", "apscheduler", "aiohttp.access")
_FORMATTER = logging.Formatter()


class RedactFilter(logging.Filter):
    """Replaces the secret in every formatted message (httpx puts it in request URLs)."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secret:
            message = record.getMessage()
            if self.secret in message:
                record.msg = message.replace(self.secret, "<token>")
                record.args = None
            # A traceback is formatted after filters run: format it now, redacted, and let the
            # formatter use this cached text (an exception can carry a request URL).
            if record.exc_info and not record.exc_text:
                record.exc_text = _FORMATTER.formatException(record.exc_info)
            if record.exc_text:
                record.exc_text = record.exc_text.replace(self.secret, "<token>")
            if record.stack_info:
                record.stack_info = record.stack_info.replace(self.secret, "<token>")
        return True


class CurrentStderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to `sys.stderr` as it is when a record is emitted, not as it was when logging was
    set up: a command run in-process (tests, the sandbox) may have set it up while stderr was a
    stream that is closed since, and every later line then failed with "Logging error"."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass  # always the current sys.stderr


def setup(level: str = "INFO", secret: str = "") -> None:
    handler = CurrentStderr()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactFilter(secret))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in NOISY:
        # httpx logs each request URL, token included, at INFO.
        logging.getLogger(name).setLevel(max(logging.WARNING, root.level))
