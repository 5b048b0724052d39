"""Mini App initData validation, as Telegram specifies it, and the CSV links' download tokens."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.web.auth import (
    AuthError,
    check_download_token,
    download_token,
    sign_init_data,
    validate_init_data,
)

TOKEN = "123456:TEST-token-never-logged"
NOW = 1_790_000_000.0
USER = {"id": 42, "first_name": "Awa", "language_code": "fr"}


def telegram_signed(fields: dict[str, str], token: str = TOKEN) -> str:
    """Signed independently of bot.web.auth, straight from Telegram's description."""
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def fields(**extra: str) -> dict[str, str]:
    return {
        "auth_date": str(int(NOW - 60)),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(USER),
        **extra,
    }


def test_valid_init_data_names_the_user_and_start_param() -> None:
    raw = telegram_signed(fields(start_param="g-100777", signature="abc"))
    user = validate_init_data(raw, TOKEN, now=NOW)
    assert (user.id, user.first_name, user.language_code) == (42, "Awa", "fr")
    assert user.start_param == "g-100777"


def test_our_signer_matches_telegrams_description() -> None:
    raw = sign_init_data(TOKEN, USER, auth_date=NOW, start_param="g1")
    ours = dict(parse_qsl(raw))
    theirs = dict(parse_qsl(telegram_signed({k: v for k, v in ours.items() if k != "hash"})))
    assert ours["hash"] == theirs["hash"]
    assert validate_init_data(raw, TOKEN, now=NOW).id == 42


def test_tampered_field_or_hash_is_refused() -> None:
    raw = telegram_signed(fields())
    other_user = raw.replace("%22id%22%3A+42", "%22id%22%3A+43")
    assert other_user != raw
    with pytest.raises(AuthError, match="hash"):
        validate_init_data(other_user, TOKEN, now=NOW)
    parsed = dict(parse_qsl(raw))
    flipped = parsed["hash"][:-1] + ("0" if parsed["hash"][-1] != "0" else "1")
    with pytest.raises(AuthError, match="hash"):
        validate_init_data(urlencode({**parsed, "hash": flipped}), TOKEN, now=NOW)
    with pytest.raises(AuthError):
        validate_init_data(urlencode({k: v for k, v in parsed.items() if k != "hash"}), TOKEN)


def test_signed_for_another_bot_is_refused() -> None:
    raw = telegram_signed(fields(), token="654321:another-bot")
    with pytest.raises(AuthError, match="hash"):
        validate_init_data(raw, TOKEN, now=NOW)


def test_expired_or_future_init_data_is_refused() -> None:
    old = telegram_signed(fields(auth_date=str(int(NOW - 24 * 3600 - 1))))
    with pytest.raises(AuthError, match="expired"):
        validate_init_data(old, TOKEN, now=NOW)
    assert validate_init_data(old, TOKEN, now=NOW, max_age=2 * 24 * 3600).id == 42
    future = telegram_signed(fields(auth_date=str(int(NOW + 3600))))
    with pytest.raises(AuthError, match="future"):
        validate_init_data(future, TOKEN, now=NOW)


@pytest.mark.parametrize(
    "user",
    [None, "not json", json.dumps({"first_name": "no id"}), json.dumps({"id": True}), "[1]"],
)
def test_missing_or_malformed_user_is_refused(user: str | None) -> None:
    data = fields()
    if user is None:
        del data["user"]
    else:
        data["user"] = user
    with pytest.raises(AuthError, match="user"):
        validate_init_data(telegram_signed(data), TOKEN, now=NOW)


@pytest.mark.parametrize("raw", ["", "a", "x" * 5000, "hash=1&hash=2", "=&="])
def test_garbage_is_refused(raw: str) -> None:
    with pytest.raises(AuthError):
        validate_init_data(raw, TOKEN, now=NOW)


def test_duplicate_fields_are_refused_even_when_signed() -> None:
    raw = telegram_signed(fields()) + "&auth_date=1"
    with pytest.raises(AuthError):
        validate_init_data(raw, TOKEN, now=NOW)


def test_download_tokens_are_bound_to_user_scope_and_time() -> None:
    token = download_token(TOKEN, 42, "group:-100", now=NOW)
    assert check_download_token(TOKEN, token, "group:-100", now=NOW + 599) == 42
    with pytest.raises(AuthError):
        check_download_token(TOKEN, token, "group:-101", now=NOW)
    with pytest.raises(AuthError):
        check_download_token(TOKEN, token, "group:-100", now=NOW + 601)
    with pytest.raises(AuthError):
        check_download_token("654321:another-bot", token, "group:-100", now=NOW)
    _, expires, sig = token.split(".")
    with pytest.raises(AuthError):
        check_download_token(TOKEN, f"43.{expires}.{sig}", "group:-100", now=NOW)
    with pytest.raises(AuthError):
        check_download_token(TOKEN, "garbage", "group:-100", now=NOW)
