"""Fault injection: make the next N matching requests fail the way Telegram or the network can.

Rules are consulted by the server before a request is handled. Kinds:

* "429", "500", "502": an error response (429 carries `retry_after`);
* "403_blocked", "400_chat_not_found", "not_modified", "query_too_old": Telegram's exact errors;
* "400_migrated" (the group became a supergroup: `migrate_to_chat_id` in `parameters`),
  "409_conflict" (another getUpdates or a webhook is active), "401_unauthorized";
* "400", "403": that error with Telegram's `description` (without its "Bad Request: " or
  "Forbidden: " start), for the many others ("message to edit not found", "bot was kicked
  from the supergroup chat", "not enough rights to send text messages to the chat"...);
* "not_json": a 502 whose body is an HTML page, as a proxy in front of the Bot API answers;
* "result": 200 and `{"ok": true, "result": <result>}`, a result of a shape the method never
  returns;
* "timeout": the response is held for `delay` seconds (default 60), past any client read timeout;
* "drop": the connection is closed with no response at all;
* "delay": the request is handled normally after `delay` seconds (latency);
* "hold": the request is handled at once (the message is in the chat, the user sees it) and its
  response is held until the test calls `rule.release()`: the bot learns of it later, at a
  moment of the test's choosing (a race between that response and the user's next update).

With `handled=True` the request takes effect first (the message is really sent) and only the
response is lost: the nastiest real case, where a retry duplicates the message.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from . import errors
from .errors import ApiError

KINDS = frozenset(
    {
        "429", "500", "502", "timeout", "drop", "delay", "403_blocked", "400_chat_not_found",
        "not_modified", "query_too_old", "400_migrated", "409_conflict", "401_unauthorized",
        "hold", "400", "403", "not_json", "result",
    }
)  # fmt: skip


MIGRATED_TO = -1_001_234_567_890  # the supergroup a "400_migrated" fault points to


@dataclass
class FaultRule:
    """One injected fault; `times` counts down, `None` means forever."""

    method: str | None
    kind: str
    times: int | None = 1
    chat_id: int | None = None
    retry_after: int = 1
    delay: float | None = None
    handled: bool = False
    description: str = "bad request"  # "400", "403": Telegram's words after "Bad Request: "
    result: Any = None  # "result": what the answer's `result` holds
    hits: int = 0
    released: asyncio.Event = field(default_factory=asyncio.Event)  # "hold": set to answer

    def release(self) -> None:
        """A "hold" rule: send the held responses now, and answer later matches at once."""
        self.released.set()

    def error(self) -> ApiError | None:
        """The error response this fault answers with, if it is one."""
        match self.kind:
            case "429":
                return errors.too_many_requests(self.retry_after)
            case "500":
                return ApiError(500, "Internal Server Error")
            case "502":
                return ApiError(502, "Bad Gateway")
            case "403_blocked":
                return errors.forbidden(errors.BLOCKED)
            case "400_chat_not_found":
                return errors.bad_request(errors.CHAT_NOT_FOUND)
            case "not_modified":
                return errors.bad_request(errors.NOT_MODIFIED)
            case "query_too_old":
                return errors.bad_request(errors.QUERY_TOO_OLD)
            case "400_migrated":
                return errors.ApiError(
                    400,
                    "Bad Request: group chat was upgraded to a supergroup chat",
                    {"migrate_to_chat_id": MIGRATED_TO},
                )
            case "409_conflict":
                return errors.ApiError(409, errors.CONFLICT)
            case "401_unauthorized":
                return errors.UNAUTHORIZED
            case "400":
                return errors.bad_request(self.description)
            case "403":
                return errors.forbidden(self.description)
        return None

    @property
    def wait(self) -> float:
        if self.delay is not None:
            return self.delay
        return 60.0 if self.kind == "timeout" else 0.0


class Faults:
    """The registry tests fill with `emu.faults.add(...)`."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []

    def add(
        self,
        method: str | None = None,
        kind: str = "500",
        *,
        times: int | None = 1,
        chat_id: int | None = None,
        retry_after: int = 1,
        delay: float | None = None,
        handled: bool = False,
        description: str = "bad request",
        result: Any = None,
    ) -> FaultRule:
        """Fail the next `times` requests to `method` (any method if None), optionally one chat."""
        if kind not in KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; one of {sorted(KINDS)}")
        rule = FaultRule(
            method.lower() if method else None, kind, times, chat_id, retry_after, delay, handled,
            description, result,
        )  # fmt: skip
        self.rules.append(rule)
        return rule

    def clear(self) -> None:
        self.rules.clear()

    def take(self, method: str, params: dict[str, Any]) -> FaultRule | None:
        """The first rule matching this request, consuming one of its `times`."""
        if not self.rules:
            return None
        for rule in self.rules:
            if rule.method is not None and rule.method != method:
                continue
            if rule.chat_id is not None and str(params.get("chat_id")) != str(rule.chat_id):
                continue
            rule.hits += 1
            if rule.times is not None:
                rule.times -= 1
                if rule.times <= 0:
                    self.rules.remove(rule)
            return rule
        return None
