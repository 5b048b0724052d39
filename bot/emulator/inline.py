"""Inline mode: a user types `@bot words` in any chat, the bot answers with results
(answerInlineQuery), and the user posts one, which the chat shows "via @bot".

Telegram's limits are kept: at most 50 results, result ids of 1-64 bytes and unique, and an
answer within 10 s of the query (later: "query is too old..."). Every answer is kept in
`answers` for the tests to read. A posted result reaches the chat only (the bot gets no update
for it: chosen_inline_result needs /setinlinefeedback, which the emulator does not model).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from . import errors

ANSWER_WINDOW = 10.0  # seconds Telegram waits for answerInlineQuery
MAX_RESULTS = 50
MAX_RESULT_ID_BYTES = 64
CHAT_TYPES = frozenset({"sender", "private", "group", "supergroup", "channel"})


@dataclass(frozen=True)
class InlineAnswer:
    """What the bot answered to one inline query."""

    query_id: str
    query: str
    results: tuple[dict[str, Any], ...]
    cache_time: int | None = None
    is_personal: bool = False
    next_offset: str = ""
    button: dict[str, Any] | None = None

    def result(self, result_id: str) -> dict[str, Any]:
        for found in self.results:
            if found.get("id") == result_id:
                return found
        raise LookupError(f"no result {result_id!r}: {[r.get('id') for r in self.results]}")

    @property
    def titles(self) -> list[str]:
        return [str(r.get("title", "")) for r in self.results]


@dataclass
class PendingInline:
    id: str
    user_id: int
    query: str
    created: float
    answer: asyncio.Future[InlineAnswer]


class InlineQueries:
    """The inline queries users asked and the bot's answers."""

    def __init__(self) -> None:
        self.pending: dict[str, PendingInline] = {}
        self.answers: list[InlineAnswer] = []
        self._next = 7_000_000_000_000_000_000

    def ask(self, user_id: int, query: str, created: float) -> PendingInline:
        self._next += 1
        asked = PendingInline(
            str(self._next), user_id, query, created, asyncio.get_running_loop().create_future()
        )
        self.pending[asked.id] = asked
        return asked

    def answer(self, query_id: str, results: Any, now: float, **fields: Any) -> InlineAnswer:
        """answerInlineQuery: checked as Telegram checks it, once per query."""
        asked = self.pending.get(query_id)
        if asked is None or now - asked.created > ANSWER_WINDOW:
            self.pending.pop(query_id, None)
            raise errors.bad_request(errors.QUERY_TOO_OLD)
        checked = _checked(results)
        del self.pending[query_id]
        answer = InlineAnswer(query_id, asked.query, checked, **fields)
        self.answers.append(answer)
        if not asked.answer.done():
            asked.answer.set_result(answer)
        return answer


def _checked(results: Any) -> tuple[dict[str, Any], ...]:
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise errors.bad_request("can't parse inline query results JSON object")
    if len(results) > MAX_RESULTS:
        raise errors.bad_request("RESULTS_TOO_MUCH")
    seen: set[str] = set()
    for result in results:
        result_id = result.get("id")
        if (
            not isinstance(result_id, str)
            or not 1 <= len(result_id.encode()) <= MAX_RESULT_ID_BYTES
        ):
            raise errors.bad_request("RESULT_ID_INVALID")
        if result_id in seen:
            raise errors.bad_request("RESULT_ID_DUPLICATE")
        seen.add(result_id)
        if result.get("type") == "article":
            if not result.get("title"):
                raise errors.bad_request("RESULT_TITLE_EMPTY")
            content = result.get("input_message_content")
            if not isinstance(content, dict) or not content.get("message_text"):
                raise errors.bad_request("MESSAGE_EMPTY")
    return tuple(results)
