"""Logging set-up. The token must never reach a log line, whatever the level."""

from __future__ import annotations

import logging

NOISY = ("httpx", "httpcore", "apscheduler", "aiohttp.access")


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
