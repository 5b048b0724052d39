"""Bot API errors as Telegram words them, raised by handlers and turned into JSON by the server."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A Bot API failure: HTTP status, Telegram's description and optional `parameters`."""

    def __init__(
        self, code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(what: str) -> ApiError:
    return ApiError(400, f"Bad Request: {what}")


def forbidden(what: str) -> ApiError:
    return ApiError(403, f"Forbidden: {what}")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


# Descriptions used in more than one place; tests import them instead of retyping.
CHAT_NOT_FOUND = "chat not found"
# A forum topic that does not exist (or was deleted), and one an admin closed.
THREAD_NOT_FOUND = "message thread not found"
TOPIC_CLOSED = "TOPIC_CLOSED"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
BLOCKED = "bot was blocked by the user"
CANT_INITIATE = "bot can't initiate conversation with a user"
CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is "
    "running"
)
UNAUTHORIZED = ApiError(401, "Unauthorized")
NOT_FOUND = ApiError(404, "Not Found")
