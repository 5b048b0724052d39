"""What the webhook tests send: bodies with the secret that are no update, and hypothesis
strategies for bodies and headers (the single-process webhook and the workers' front pass
through the same door, bot/webhook_gate.py, and are fuzzed alike)."""

from __future__ import annotations

import json

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.webhook_gate import SECRET_HEADER

SECRET = "s3cret-Token_1"
MB = 1 << 20

# Webhook bodies with the secret that are no update: each is refused with 400 and one line.
MALFORMED_UPDATES = [
    b"not json",
    b"[" * 100_000 + b"]" * 100_000,
    b'{"update_id": "7"}',
    b'{"update_id": true}',
    b'{"update_id": 1e3}',
    b'{"update_id": 99999999999999999999999999}',
    b'{"update_id": 18446744073709551615}',
    b'{"update_id": -5}',
    b"[]",
    b'[{"update_id": 1}]',
    b'"update"',
    b"7",
    b"null",
    b"",
    b'\xff\xfe{"update_id": 1}',
    b'{"update_id": 1, "message": "\xc3\x28"}',
    b'{"update_id": 1, "message": "hello"}',
    b'{"update_id": 1, "message": {"chat": 5}}',
    b'{"update_id": 1, "callback_query": []}',
    b'{"message": {}}',
    b'{"update_id": 1, "message": {}}',
    b'{"update_id": 1, "chat_member": {}}',
    b'{"update_id": 1, "my_chat_member": {"chat": {"id": 5}}}',
    b'{"update_id": 1, "callback_query": {"id": "1"}}',
    b'{"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": {"id": 5}}}',
]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["message", "edited_message", "callback_query", "chat_member", "my_chat_member",
     "poll_answer", "inline_query", "channel_post", "message_reaction", "update_id"]
) | st.text(max_size=12)  # fmt: skip
UPDATE_LIKE = st.builds(
    lambda uid, rest: json.dumps({"update_id": uid, **rest}).encode(),
    st.integers(min_value=-(2**70), max_value=2**70) | JSON,
    st.dictionaries(FIELDS, JSON, max_size=3),
)
BODIES = (
    UPDATE_LIKE
    | JSON.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=512)
    | st.builds(lambda n, c: c * n, st.integers(0, 3 * MB), st.sampled_from([b"[", b"{", b"a"]))
)
HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)
HEADERS = st.fixed_dictionaries(
    {
        # Most examples carry the secret: what lies behind it is what needs fuzzing.
        SECRET_HEADER: st.one_of(st.just(SECRET), st.just(SECRET), HEADER_TEXT),
    },
    optional={
        "Content-Type": st.sampled_from(
            ["application/json", "text/plain", "application/json; charset=nope",
             "application/json; charset=utf-16", "multipart/form-data"]
        )
        | HEADER_TEXT,
        "Content-Encoding": st.sampled_from(["identity", "IDENTITY", "gzip", "br", "x-nope"]),
        "X-Anything": HEADER_TEXT,
    },
)  # fmt: skip


def fuzz(url: str, examples: int) -> list[int]:
    """Post `examples` fuzzed requests to `url` (synchronously: run it in a thread beside the
    server's loop); every status must be below 500 (0: the server closed the connection)."""
    seen: list[int] = []

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(body=BODIES, headers=HEADERS)
    def one(body: bytes, headers: dict[str, str]) -> None:
        try:
            code = client.post(url, content=body, headers=headers).status_code
        except httpx.TransportError:
            code = 0  # the server closed a connection it would not read further
        seen.append(code)
        assert code < 500, (code, body[:200], headers)

    with httpx.Client(timeout=30) as client:  # one client: building one costs more than a post
        one()
    return seen
