"""The dashboard's settings from the environment, checked at start-up like the bot's own."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from bot.config import ConfigError
from bot.web.auth import DEFAULT_MAX_AGE

SHORT_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")


@dataclass(frozen=True)
class WebSettings:
    url: str | None = None  # public HTTPS address of the dashboard; None: not offered in chats
    short_name: str | None = None  # the Mini App's short name in BotFather (t.me/<bot>/<name>)
    listen: str = "127.0.0.1"
    port: int = 8080
    max_age: float = DEFAULT_MAX_AGE  # how long an initData stays good, in seconds

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> WebSettings:
        e = dict(os.environ if env is None else env)

        def get(name: str) -> str | None:
            return e.get(name, "").strip() or None

        url = get("QUIZBOT_WEBAPP_URL")
        if url is not None and not url.startswith("https://"):
            raise ConfigError("QUIZBOT_WEBAPP_URL must start with https:// (Telegram needs it)")
        name = get("QUIZBOT_WEBAPP_NAME")
        if name is not None and not SHORT_NAME.fullmatch(name):
            raise ConfigError("QUIZBOT_WEBAPP_NAME must be the app's short name from BotFather")
        numbers: dict[str, float] = {}
        defaults = (("QUIZBOT_WEB_PORT", 8080.0), ("QUIZBOT_WEBAPP_MAX_AGE", DEFAULT_MAX_AGE))
        for var, default in defaults:
            raw = get(var)
            try:
                numbers[var] = float(int(raw)) if raw is not None else default
            except ValueError:
                raise ConfigError(f"{var} must be a whole number, got {raw!r}") from None
            if numbers[var] <= 0:
                raise ConfigError(f"{var} must be positive")
        if numbers["QUIZBOT_WEB_PORT"] > 65535:
            raise ConfigError(
                f"QUIZBOT_WEB_PORT must be 1-65535, got {int(numbers['QUIZBOT_WEB_PORT'])}"
            )
        return cls(
            url=url,
            short_name=name,
            listen=get("QUIZBOT_WEB_LISTEN") or "127.0.0.1",
            port=int(numbers["QUIZBOT_WEB_PORT"]),
            max_age=numbers["QUIZBOT_WEBAPP_MAX_AGE"],
        )
