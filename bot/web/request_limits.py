"""What an unauthenticated request may cost the dashboard: a short refusal, and a log line only
while the log's budget lasts.

Anyone can send a dashboard request, so none may cost a traceback or a line per request: a 20 KB
request line was a full aiohttp traceback each time (`LineTooLong`, raised by its parser before
any handler runs). aiohttp still refuses such a request with 400; its server logger is given to
`QuietServerLog`, which writes a malformed request as one short line while a `LogBudget` lasts
(then one line saying how many were left out) and anything else as aiohttp would. A request
target longer than any link the dashboard makes is refused with 414 before it is read further.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError

from bot.core.clock import Clock

MAX_TARGET = 2048  # path and query: our links are a few hundred characters at most
LINES = 20  # log lines at once about refused requests
REFILL_SECONDS = 3.0  # then one more each this often (20 a minute)


class LogBudget:
    """At most `lines` lines at once, then one every `refill` seconds; what was left out is
    counted and said with the next line."""

    def __init__(
        self, lines: int = LINES, refill: float = REFILL_SECONDS, clock: Clock = time.monotonic
    ) -> None:
        self._lines = lines
        self._refill = refill
        self._clock = clock
        self._tokens = float(lines)
        self._at = clock()
        self.left_out = 0

    def take(self) -> int | None:
        """None: stay silent. Else log, and say how many lines were left out before this one."""
        now = self._clock()
        self._tokens = min(float(self._lines), self._tokens + (now - self._at) / self._refill)
        self._at = now
        if self._tokens < 1:
            self.left_out += 1
            return None
        self._tokens -= 1
        left_out, self.left_out = self.left_out, 0
        return left_out


def log_refusal(logger: logging.Logger, budget: LogBudget, message: str, *args: object) -> None:
    """One warning line if the budget allows; lines left out before it are counted in it."""
    left_out = budget.take()
    if left_out is None:
        return
    if left_out:
        message += " (and %d more refusals not logged)"
        args = (*args, left_out)
    logger.warning(message, *args)


class QuietServerLog(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's server logger for the dashboard (the `logger` its request handler takes)."""

    def __init__(self, budget: LogBudget | None = None) -> None:
        super().__init__(logging.getLogger("aiohttp.server"), {})
        self.budget = budget or LogBudget()

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            remote = args[0] if args else "?"
            text = str(exc_info.message).split(":", 1)[0][:80]  # never the request's bytes
            log_refusal(
                logging.getLogger("bot.web"), self.budget,
                "dashboard: refused a malformed request from %s: %s %s",
                remote, exc_info.code, text,
            )  # fmt: skip
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)

    def debug(self, msg: object, *args: object, **kwargs: Any) -> None:
        exc_info = kwargs.get("exc_info")
        if isinstance(exc_info, HttpProcessingError):
            kwargs["exc_info"] = None  # aiohttp's debug line for non-HTTP bytes: no traceback
        super().debug(msg, *args, **kwargs)
