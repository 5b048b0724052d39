"""What a stranger's requests may cost the log: a refusal is one short line while a budget
lasts, then one line saying how many were left out; never a traceback, never the request's bytes.

Shared by the dashboard (bot/web) and the webhook's door (bot/webhook_gate.py): anyone can send
either a request. aiohttp's parser refuses a malformed request (a 20 KB request line,
`LineTooLong`) with 400 before any handler runs and logged each with a full traceback; its
server logger is given to `QuietServerLog`, which writes such a refusal as one budgeted line and
anything else (a handler's own exception: a bug) as aiohttp would.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError

from bot.core.clock import Clock

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


def client_error(exc: object) -> HttpProcessingError | None:
    """The client's fault behind an exception (a 4xx parse error), also where aiohttp wraps it
    (a body it could not decode, read after the answer, raises RequestPayloadError from it)."""
    while isinstance(exc, BaseException):
        if isinstance(exc, HttpProcessingError):
            return exc if 400 <= exc.code < 500 else None
        exc = exc.__cause__ or exc.__context__
    return None


class QuietServerLog(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's server logger (the `logger` its request handler takes, through AppRunner) for
    a server of ours: `what` names it in the line, `logger` writes it."""

    def __init__(self, what: str, logger: logging.Logger, budget: LogBudget | None = None) -> None:
        super().__init__(logging.getLogger("aiohttp.server"), {})
        self.what, self.refusals = what, logger
        self.budget = budget or LogBudget()

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kwargs: Any) -> None:
        error = client_error(exc_info)
        if error is not None:
            remote = args[0] if args else "?"
            text = str(error.message).split(":", 1)[0][:80]  # never the request's bytes
            log_refusal(
                self.refusals, self.budget, "%s: refused a malformed request from %s: %s %s",
                self.what, remote, error.code, text,
            )  # fmt: skip
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)

    def debug(self, msg: object, *args: object, **kwargs: Any) -> None:
        if client_error(kwargs.get("exc_info")) is not None:
            kwargs["exc_info"] = None  # aiohttp's debug line for non-HTTP bytes: no traceback
        super().debug(msg, *args, **kwargs)
