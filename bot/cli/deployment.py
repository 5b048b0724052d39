"""What a deployment's settings make of the bot, the same for one process (`quizbot run`) and
for each worker of `quizbot run --workers N` (bot/cli/worker.py).

The two entry points used to build their options and load their content each in their own way,
and drifted: the workers ignored QUIZBOT_GUIDE_BASE_URL (every guide link went back to the
content's own URL), QUIZBOT_TRANSPORT and QUIZBOT_CONTENT_DIR for what the services read. What
is left to each entry point is what really differs: one process's control socket, owners who
may /reload and dashboard; the workers' shared store, timers and pacing.
"""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings, TokenRefused
from bot.content import default_content_dir, load_catalog
from bot.core.models import Catalog
from bot.i18n import load_all
from bot.tg.options import BotOptions


def content_dir(settings: Settings, override: Path | None = None) -> Path:
    return override or settings.content_dir or default_content_dir()


def load_content(settings: Settings, content: Path, cache_dir: Path | None = None) -> Catalog:
    """The catalogue as this deployment serves it (its guide links included) and the UI
    catalogues; raises ContentError or CatalogueError, which an entry point reports in one line.
    `cache_dir`: where the checks' clean result is kept (beside the SQLite file)."""
    catalog = load_catalog(content, cache_dir=cache_dir, guide_base_url=settings.guide_base_url)
    load_all()
    return catalog


def deployment_options(
    settings: Settings,
    catalog: Catalog,
    content: Path,
    *,
    db_path: Path,
    base_url: str | None = None,
) -> BotOptions:
    """The options every entry point takes from the settings; each adds its own with
    `dataclasses.replace`."""
    return BotOptions(
        token=settings.token.reveal(),
        db_path=db_path,
        catalog=catalog,
        base_url=base_url or settings.api_base_url,
        default_language=settings.default_language,
        admin_chat_id=settings.admin_chat_id,
        group_seconds=settings.question_seconds,
        group_timezone=settings.timezone,
        timezone=settings.timezone,
        retention=settings.retention,
        transport=settings.transport,
        webhook_reply_wait=settings.webhook_reply_wait,
        content_dir=content,
        guide_base_url=settings.guide_base_url,
    )


def start_failure(exc: BaseException, token: str) -> str:
    """The line an entry point prints for a start-up failure: a refused token as such, any
    other error by type and text with the token blanked (an error may quote a request's URL)."""
    if isinstance(exc, TokenRefused):
        return str(exc)
    text = f"{type(exc).__name__}: {exc}"
    return text.replace(token, "<token>") if token else text
