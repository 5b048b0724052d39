"""Who is asking: Telegram Mini App `initData`, validated exactly as Telegram specifies.

The client hands `initData` (a query string) to the page, never to us; the page sends it with
every request. We recompute its `hash`: `secret_key = HMAC_SHA256(key="WebAppData",
msg=bot_token)`, then `hex(HMAC_SHA256(key=secret_key, msg=data_check_string))`, where
`data_check_string` is every other field as `key=value`, sorted by key, joined with a line feed.
Hashes are compared in constant time; `auth_date` must be recent (a captured `initData` replayed
later is refused), and a user must be present.

Also here: `sign_init_data`, which the offline sandbox and the tests use to sign locally with a
token they own, and short-lived download tokens for CSV links (a link cannot carry a header).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

DEFAULT_MAX_AGE = 24 * 3600.0
CLOCK_SKEW = 60.0  # an auth_date this far in the future is tolerated (clocks differ)
MAX_INIT_DATA = 4096  # Telegram's initData is well under this; longer is not Telegram's


class AuthError(ValueError):
    """The initData (or a download token) is not acceptable; the message says why, never what."""


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """The validated viewer, and where they opened the app from."""

    id: int
    first_name: str
    language_code: str | None
    start_param: str | None
    auth_date: int


def _secret(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def _fields(raw: str) -> dict[str, str]:
    if not raw or len(raw) > MAX_INIT_DATA:
        raise AuthError("missing or oversized")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise AuthError("not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise AuthError("a field appears twice")
    return fields


def validate_init_data(
    raw: str, token: str, *, max_age: float = DEFAULT_MAX_AGE, now: float | None = None
) -> WebAppUser:
    """The viewer `raw` vouches for, or AuthError (forged, for another bot, stale, no user)."""
    fields = _fields(raw)
    received = fields.get("hash", "")
    expected = hmac.new(_secret(token), _check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(received.encode(), expected.encode()):
        raise AuthError("bad hash")
    try:
        auth_date = int(fields["auth_date"])
    except (KeyError, ValueError):
        raise AuthError("no auth_date") from None
    moment = time.time() if now is None else now
    if moment - auth_date > max_age:
        raise AuthError("expired")
    if auth_date - moment > CLOCK_SKEW:
        raise AuthError("auth_date in the future")
    try:
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise AuthError("no user") from None
    if not isinstance(user, dict) or isinstance(user["id"], bool) or user_id <= 0:
        raise AuthError("no user")
    language = user.get("language_code")
    return WebAppUser(
        id=user_id,
        first_name=str(user.get("first_name") or ""),
        language_code=language if isinstance(language, str) else None,
        start_param=fields.get("start_param") or None,
        auth_date=auth_date,
    )


def sign_init_data(
    token: str,
    user: dict[str, object] | None,
    *,
    auth_date: float | None = None,
    start_param: str | None = None,
) -> str:
    """initData as a Telegram client would hand it over, signed with `token` (sandbox, tests)."""
    fields: dict[str, str] = {
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
    }
    if user is not None:
        fields["user"] = json.dumps(user, separators=(",", ":"), ensure_ascii=False)
    if start_param:
        fields["start_param"] = start_param
    fields["hash"] = hmac.new(
        _secret(token), _check_string(fields).encode(), hashlib.sha256
    ).hexdigest()
    return urlencode(fields)


# -- download links ---------------------------------------------------------------------------

DOWNLOAD_SECONDS = 600.0


def _download_key(token: str) -> bytes:
    # Derived, so a leaked download link reveals nothing about the secret that signs initData.
    return hmac.new(b"quizbot-download", token.encode(), hashlib.sha256).digest()


def download_token(token: str, user_id: int, scope: str, *, now: float | None = None) -> str:
    """A link's proof that `user_id` may fetch `scope` (e.g. "group:-100123"), for ten minutes."""
    expires = int((time.time() if now is None else now) + DOWNLOAD_SECONDS)
    body = f"{user_id}.{expires}"
    sig = hmac.new(_download_key(token), f"{body}.{scope}".encode(), hashlib.sha256).hexdigest()
    return f"{body}.{sig}"


def check_download_token(token: str, value: str, scope: str, *, now: float | None = None) -> int:
    """The user a download token was issued to, or AuthError (forged, other scope, expired)."""
    try:
        user_text, expires_text, sig = value.split(".")
        user_id, expires = int(user_text), int(expires_text)
    except ValueError:
        raise AuthError("malformed download token") from None
    body = f"{user_text}.{expires_text}.{scope}".encode()
    expected = hmac.new(_download_key(token), body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(sig.encode(), expected.encode()):
        raise AuthError("bad download token")
    if (time.time() if now is None else now) > expires:
        raise AuthError("expired download token")
    return user_id
