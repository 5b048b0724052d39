"""Every `QUIZBOT_*` name quizbot reads, so that a misspelt one is said, not ignored.

An operator who writes `QUIZBOT_WEBHOOK_SECRETS=...` in `.env` got the default without a word.
Names cannot be refused outright: docker compose passes its own (`QUIZBOT_WORKERS`,
`QUIZBOT_PG_PASSWORD`) through the same environment. So `quizbot run` and `quizbot web` log a
warning for each name nothing reads, with the setting it most resembles. tests/test_docs.py
holds `SETTINGS` and the README's settings table to each other.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

SETTINGS = frozenset(
    {
        "QUIZBOT_ADMIN_CHAT_ID", "QUIZBOT_API_BASE_URL", "QUIZBOT_CONTENT_DIR", "QUIZBOT_DB",
        "QUIZBOT_DEFAULT_LANGUAGE", "QUIZBOT_GUIDE_BASE_URL", "QUIZBOT_LOCALES_DIR",
        "QUIZBOT_LOG_LEVEL", "QUIZBOT_METRICS_LISTEN", "QUIZBOT_METRICS_PORT",
        "QUIZBOT_OWNER_IDS", "QUIZBOT_PG_BIN", "QUIZBOT_QUESTION_SECONDS", "QUIZBOT_RETENTION",
        "QUIZBOT_TIMEZONE", "QUIZBOT_TRANSPORT", "QUIZBOT_WEBAPP_MAX_AGE", "QUIZBOT_WEBAPP_NAME",
        "QUIZBOT_WEBAPP_URL", "QUIZBOT_WEBHOOK_LISTEN", "QUIZBOT_WEBHOOK_PORT",
        "QUIZBOT_WEBHOOK_REPLY_WAIT", "QUIZBOT_WEBHOOK_SECRET", "QUIZBOT_WEBHOOK_URL",
        "QUIZBOT_WEB_LISTEN", "QUIZBOT_WEB_PORT",
    }
)  # fmt: skip
# Read by docker-compose.yml, by the tests or by Prometheus' client, never by quizbot itself.
OTHERS = frozenset(
    {"QUIZBOT_WORKERS", "QUIZBOT_PG_PASSWORD", "QUIZBOT_E2E_ENGINES", "QUIZBOT_TEST_ARTIFACTS",
     "QUIZBOT_CHROMIUM"}
)  # fmt: skip


def unknown(names: Iterable[str]) -> list[str]:
    """A sentence for each `QUIZBOT_*` name among `names` that nothing reads."""
    lines = []
    for name in sorted(n for n in names if n.startswith("QUIZBOT_")):
        if name in SETTINGS or name in OTHERS:
            continue
        close = difflib.get_close_matches(name, sorted(SETTINGS), n=1, cutoff=0.8)
        hint = f" (did you mean {close[0]}?)" if close else " (the README's table lists them)"
        lines.append(f"{name} is not a setting quizbot reads{hint}: ignored")
    return lines
