"""Logging set-up. The token must never reach a log line, whatever the level."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

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


def setup(level: str = "INFO", secret: str = "") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactFilter(secret))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in NOISY:
        # httpx logs each request URL, token included, at INFO.
        logging.getLogger(name).setLevel(max(logging.WARNING, root.level))


class Throttled:
    """At most one line per `every` seconds per kind, for noise a stranger can repeat at will
    (bad webhook bodies, malformed requests): the first is logged, the others are counted and
    the count joins the next line. Kinds are the caller's constants, never request data, so the
    tables stay small."""

    def __init__(
        self,
        logger: logging.Logger,
        every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger, self.every, self.clock = logger, every, clock
        self._next: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def allow(self, kind: str) -> int | None:
        """None while `kind` is quiet (this one is counted), else how many were held back."""
        now = self.clock()
        if now < self._next.get(kind, float("-inf")):
            self._held[kind] = self._held.get(kind, 0) + 1
            return None
        self._next[kind] = now + self.every
        return self._held.pop(kind, 0)

    def warning(self, kind: str, msg: str, *args: object) -> None:
        held = self.allow(kind)
        if held is None:
            return
        if held:
            msg, args = msg + " (%d more since the last line)", (*args, held)
        self.logger.warning(msg, *args)
