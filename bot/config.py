"""Settings from the environment, validated once at start-up. The token is never printed."""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.content.guide_urls import ENV as GUIDE_BASE_ENV
from bot.content.guide_urls import check_base_url
from bot.i18n import SUPPORTED_LANGUAGES
from bot.store.location import Location, parse_location

TELEGRAM_API = "https://api.telegram.org/bot"
# What Telegram accepts as setWebhook's secret_token (it refuses anything else).
WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
WEBHOOK_PORTS = frozenset({80, 88, 443, 8443})  # the only ports setWebhook accepts
TRANSPORTS = (
    "aiohttp",
    "httpx",
)  # bot.tg.wire.transport.TRANSPORTS; not imported: no telegram here


class Secret:
    """A string that does not show itself in reprs, logs or tracebacks."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('**********')" if self._value else "Secret('')"

    __str__ = __repr__


class ConfigError(ValueError):
    """A setting is missing or malformed; the message names the variable."""


class TokenRefused(Exception):
    """Telegram refused BOT_TOKEN at start-up (getMe: 401, or 404 for a malformed token).

    Raised instead of PTB's InvalidToken, whose text quotes the token whole."""

    def __init__(self) -> None:
        super().__init__(
            "Telegram refused the token in BOT_TOKEN: copy it again from @BotFather "
            "(/mybots, API Token)"
        )


@dataclass(frozen=True)
class Settings:
    token: Secret = field(default_factory=lambda: Secret(""))
    db_path: Path = Path("data/quizbot.sqlite3")
    db_url: str | None = None  # QUIZBOT_DB=postgresql://...: the PostgreSQL store instead
    api_base_url: str = TELEGRAM_API
    content_dir: Path | None = None  # None: bot.content.default_content_dir()
    default_language: str = "en"
    timezone: str = "UTC"
    webhook_url: str | None = None
    webhook_secret: Secret = field(default_factory=lambda: Secret(""))
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    # How long Telegram's request for a tap waits for the tap's popup to ride on its response
    # (bot/webhook_replies.py); 0: every popup is a request of its own.
    webhook_reply_wait: float = 0.5
    admin_chat_id: int | None = None  # where errors are reported, if set
    log_level: str = "INFO"
    question_seconds: int = 30  # default seconds per question in groups
    transport: str = "aiohttp"  # HTTP stack to the Bot API: ours, or "httpx" (PTB's default)
    guide_base_url: str | None = None  # every guide under the deployment's own site
    owner_ids: frozenset[int] = frozenset()  # Telegram user ids allowed to /reload
    retention: float = 0.9  # FSRS's desired retention: the recall a review is scheduled at
    # A port of its own for Prometheus (`/metrics`, `/healthz`); None: none (workers still
    # serve `/metrics` on their webhook port, beside `/healthz`).
    metrics_listen: str = "127.0.0.1"
    metrics_port: int | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        e = dict(os.environ if env is None else env)

        def get(name: str) -> str | None:
            value = e.get(name, "").strip()
            return value or None

        def integer(name: str, default: int | None) -> int | None:
            raw = get(name)
            if raw is None:
                return default
            try:
                return int(raw)
            except ValueError:
                raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None

        language = get("QUIZBOT_DEFAULT_LANGUAGE") or "en"
        if language not in SUPPORTED_LANGUAGES:
            raise ConfigError(
                f"QUIZBOT_DEFAULT_LANGUAGE must be one of {', '.join(SUPPORTED_LANGUAGES)}"
            )
        tz = get("QUIZBOT_TIMEZONE") or "UTC"
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError):
            raise ConfigError(f"QUIZBOT_TIMEZONE {tz!r} is not a known time zone") from None
        retention = _retention(get("QUIZBOT_RETENTION"))
        content = get("QUIZBOT_CONTENT_DIR")
        transport = (get("QUIZBOT_TRANSPORT") or "aiohttp").lower()
        if transport not in TRANSPORTS:
            raise ConfigError(f"QUIZBOT_TRANSPORT must be one of {', '.join(TRANSPORTS)}")
        guide_base = get(GUIDE_BASE_ENV)
        if guide_base is not None and (problem := check_base_url(guide_base)) is not None:
            raise ConfigError(problem)
        try:
            location = parse_location(get("QUIZBOT_DB") or "data/quizbot.sqlite3")
        except ValueError as exc:
            raise ConfigError(f"QUIZBOT_DB: {exc}") from None
        metrics_port = integer("QUIZBOT_METRICS_PORT", None)
        if metrics_port is not None and not 1 <= metrics_port <= 65535:
            raise ConfigError(f"QUIZBOT_METRICS_PORT must be 1-65535, got {metrics_port}")
        webhook_port = integer("QUIZBOT_WEBHOOK_PORT", 8443) or 0
        if not 1 <= webhook_port <= 65535:
            raise ConfigError(f"QUIZBOT_WEBHOOK_PORT must be 1-65535, got {webhook_port}")
        # A group's seconds are stored checked (> 0): a bad default failed every group joined.
        seconds = integer("QUIZBOT_QUESTION_SECONDS", 30) or 0
        if not 1 <= seconds <= 3600:
            raise ConfigError(f"QUIZBOT_QUESTION_SECONDS must be 1 to 3600, got {seconds}")
        log_level = (get("QUIZBOT_LOG_LEVEL") or "INFO").upper()
        if log_level not in logging.getLevelNamesMapping():
            raise ConfigError(
                "QUIZBOT_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, "
                f"got {log_level!r}"
            )
        return cls(
            token=Secret(get("BOT_TOKEN") or ""),
            db_path=location.path or Path("data/quizbot.sqlite3"),
            db_url=location.dsn,
            api_base_url=get("QUIZBOT_API_BASE_URL") or TELEGRAM_API,
            content_dir=Path(content) if content else None,
            default_language=language,
            timezone=tz,
            webhook_url=get("QUIZBOT_WEBHOOK_URL"),
            webhook_secret=Secret(get("QUIZBOT_WEBHOOK_SECRET") or ""),
            webhook_listen=get("QUIZBOT_WEBHOOK_LISTEN") or "0.0.0.0",
            webhook_port=webhook_port,
            webhook_reply_wait=_reply_wait(get("QUIZBOT_WEBHOOK_REPLY_WAIT")),
            admin_chat_id=integer("QUIZBOT_ADMIN_CHAT_ID", None),
            log_level=log_level,
            question_seconds=seconds,
            transport=transport,
            guide_base_url=guide_base,
            owner_ids=_ids("QUIZBOT_OWNER_IDS", get("QUIZBOT_OWNER_IDS")),
            retention=retention,
            metrics_listen=get("QUIZBOT_METRICS_LISTEN") or "127.0.0.1",
            metrics_port=metrics_port,
        )


def store_location(db: str | None) -> Location:
    """Where an operator's command finds the store: its `--db`, else QUIZBOT_DB, else the
    default SQLite file; spelt as QUIZBOT_DB is (a path, sqlite:///…, postgresql://…)."""
    try:
        return parse_location(db or os.environ.get("QUIZBOT_DB") or "data/quizbot.sqlite3")
    except ValueError as exc:
        raise ConfigError(f"{'--db' if db else 'QUIZBOT_DB'}: {exc}") from None


def check_webhook(url: str, secret: Secret) -> None:
    """Refuse, before anything starts, a webhook Telegram would refuse or that would leak.

    Telegram only delivers to HTTPS, on ports 80, 88, 443 and 8443, and an http:// URL would
    carry every update (and the secret header) in clear; a secret outside `A-Za-z0-9_-` (1-256
    characters) makes setWebhook fail. Neither value is echoed: the URL may hold a token of its own.
    """
    parts = urlsplit(url)
    if parts.scheme.lower() != "https" or not parts.hostname:
        raise ConfigError(
            "the webhook URL (--webhook-url or QUIZBOT_WEBHOOK_URL) must be an https:// URL "
            f"with a host; got one starting with {parts.scheme or '(no scheme)'}:"
        )
    try:
        port = parts.port or 443
    except ValueError:  # not a number, or out of range
        port = 0
    if port not in WEBHOOK_PORTS:
        raise ConfigError(
            "the webhook URL (--webhook-url or QUIZBOT_WEBHOOK_URL) must use port 80, 88, 443 or "
            "8443: Telegram delivers to no other"
        )
    if not secret:
        raise ConfigError("webhook mode needs QUIZBOT_WEBHOOK_SECRET")
    if not WEBHOOK_SECRET.fullmatch(secret.reveal()):
        raise ConfigError(
            "QUIZBOT_WEBHOOK_SECRET must be 1 to 256 characters among A-Z, a-z, 0-9, _ and - "
            "(Telegram refuses any other)"
        )


def _retention(raw: str | None) -> float:
    """QUIZBOT_RETENTION: the share of reviews FSRS aims to have recalled, 0.70 to 0.97 (below,
    reviews come too late to help; above, the workload explodes for little gain)."""
    if raw is None:
        return 0.9
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"QUIZBOT_RETENTION must be a number like 0.9, got {raw!r}") from None
    if not 0.7 <= value <= 0.97:
        raise ConfigError(f"QUIZBOT_RETENTION must be between 0.7 and 0.97, got {raw!r}")
    return value


def _reply_wait(raw: str | None) -> float:
    """QUIZBOT_WEBHOOK_REPLY_WAIT: seconds, 0 to 5 (0: popups never ride on a webhook's
    response; past a few seconds a slow tap would hold one of Telegram's connections)."""
    if raw is None:
        return 0.5
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(
            f"QUIZBOT_WEBHOOK_REPLY_WAIT must be a number of seconds like 0.5, got {raw!r}"
        ) from None
    if not 0 <= value <= 5:
        raise ConfigError(f"QUIZBOT_WEBHOOK_REPLY_WAIT must be between 0 and 5, got {raw!r}")
    return value


def _ids(name: str, raw: str | None) -> frozenset[int]:
    """Comma- or space-separated Telegram user ids."""
    if raw is None:
        return frozenset()
    try:
        return frozenset(int(part) for part in raw.replace(",", " ").split())
    except ValueError:
        raise ConfigError(f"{name} must be Telegram user ids separated by commas") from None
